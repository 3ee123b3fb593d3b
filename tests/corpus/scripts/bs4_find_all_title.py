# corpus: bs4_find_all_title (html)
# pattern seen in: github.com/Rozaki0318/python_practice :: scraping.py
# our own program written for automock's corpus; no text taken from the source
"""Print every <title> element of a home page, as bs4 renders them."""

from __future__ import annotations

import requests
from bs4 import BeautifulSoup

home = requests.get("https://www.python.org")
document = BeautifulSoup(home.text, "html.parser")
print(document.find_all("title"))
