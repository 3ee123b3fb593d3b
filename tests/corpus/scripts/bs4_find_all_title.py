# corpus: bs4_find_all_title (html)
# pattern seen in: github.com/Rozaki0318/python_practice :: scraping.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

html = requests.get("https://www.python.org")
soup = BeautifulSoup(html.text, "html.parser")
titles = soup.find_all("title")
print(titles)
