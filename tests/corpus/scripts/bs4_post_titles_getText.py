# corpus: bs4_post_titles_getText (html)
# pattern seen in: (code search result; blog post titles) :: post titles
# our own program written for automock's corpus; no text taken from the source
"""A blog's post titles, read with getText()."""

from __future__ import annotations

import requests
from bs4 import BeautifulSoup

BLOG = "https://www.codewithtomi.com/"

front = BeautifulSoup(requests.get(BLOG).content, "html.parser")
headings = front.find_all("h2", {"class": "post-title"})
for heading in headings:
    print("post:", heading.getText())
