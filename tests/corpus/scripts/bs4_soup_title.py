# corpus: bs4_soup_title (html)
# pattern seen in: github.com/mushanmushan1/test :: gbdt.py
# our own program written for automock's corpus; no text taken from the source
"""A page's title, then where each of its links points."""

from __future__ import annotations

import requests
from bs4 import BeautifulSoup

raw = requests.get("http://www.pythonscraping.com/pages/page1.html").content
markup = BeautifulSoup(raw, "html.parser")
print("page title:", markup.title.text)
targets = [anchor.get("href") for anchor in markup.find_all("a")]
for target in targets:
    print("link:", target)
