# corpus: bs4_post_titles_getText (html)
# pattern seen in: (code search result; blog post titles) :: post titles
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

url = "https://www.codewithtomi.com/"
r = requests.get(url)
soup = BeautifulSoup(r.content, "html.parser")
for t in soup.find_all("h2", {"class": "post-title"}):
    print("post:", t.getText())
