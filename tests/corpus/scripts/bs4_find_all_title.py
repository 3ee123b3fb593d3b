# corpus: bs4_find_all_title (html)
# source: github.com/Rozaki0318/python_practice :: scraping.py
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

html = requests.get("https://www.python.org")
soup = BeautifulSoup(html.text, "html.parser")
titles = soup.find_all("title")
print(titles)
