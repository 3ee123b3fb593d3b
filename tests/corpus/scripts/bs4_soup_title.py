# corpus: bs4_soup_title (html)
# pattern seen in: github.com/mushanmushan1/test :: gbdt.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

data = requests.get("http://www.pythonscraping.com/pages/page1.html").content
soup = BeautifulSoup(data, "html.parser")
print("page title:", soup.title.text)
for link in soup.find_all("a"):
    print("link:", link.get("href"))
