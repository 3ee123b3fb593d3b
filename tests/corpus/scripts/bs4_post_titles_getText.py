# corpus: bs4_post_titles_getText (html)
# source: (code search result; blog post titles) :: post titles
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

url = "https://www.codewithtomi.com/"
r = requests.get(url)
soup = BeautifulSoup(r.content, "html.parser")
for t in soup.find_all("h2", {"class": "post-title"}):
    print("post:", t.getText())
