# corpus: bs4_table_rows (html)
# pattern seen in: (code search result; wikipedia table scraper) :: table rows
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

resp = requests.get("https://en.wikipedia.org/wiki/List_of_countries_by_population")
soup = BeautifulSoup(resp.text, "html.parser")
table = soup.find("table", {"class": "wikitable"})
for row in table.find_all("tr")[1:4]:
    cells = row.find_all("td")
    print("row:", cells[0].text.strip(), cells[1].text.strip())
