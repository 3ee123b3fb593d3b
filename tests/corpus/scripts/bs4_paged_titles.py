# corpus: bs4_paged_titles (html)
# pattern seen in: (code search result; ssr1.scrape.center pages) :: paged titles
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

headers = {"User-Agent": "Mozilla/5.0"}
for i in range(1, 3):
    URL = f"https://ssr1.scrape.center/page/{i}"
    resp = requests.get(URL, headers=headers)
    soup = BeautifulSoup(resp.text, "html.parser")
    for title in soup.find_all("h2", attrs={"class": "m-b-sm"}):
        print("movie:", title.string)
