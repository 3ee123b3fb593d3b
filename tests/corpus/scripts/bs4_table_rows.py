# corpus: bs4_table_rows (html)
# pattern seen in: (code search result; wikipedia table scraper) :: table rows
# our own program written for automock's corpus; no text taken from the source
"""The first three data rows of a wiki table: two cells each."""

from __future__ import annotations

import requests
from bs4 import BeautifulSoup

ARTICLE = "https://en.wikipedia.org/wiki/List_of_countries_by_population"

markup = BeautifulSoup(requests.get(ARTICLE).text, "html.parser")
grid = markup.find("table", {"class": "wikitable"})
body_rows = grid.find_all("tr")[1:4]
for tr in body_rows:
    first, second = tr.find_all("td")[:2]
    print("row:", first.text.strip(), second.text.strip())
