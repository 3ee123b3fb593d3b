# corpus: bs4_table_rows (html)
# source: (code search result; wikipedia table scraper) :: table rows
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

resp = requests.get("https://en.wikipedia.org/wiki/List_of_countries_by_population")
soup = BeautifulSoup(resp.text, "html.parser")
table = soup.find("table", {"class": "wikitable"})
for row in table.find_all("tr")[1:4]:
    cells = row.find_all("td")
    print("row:", cells[0].text.strip(), cells[1].text.strip())
