# corpus: bs4_paged_titles (html)
# pattern seen in: (code search result; ssr1.scrape.center pages) :: paged titles
# our own program written for automock's corpus; no text taken from the source
"""Movie titles from the first two pages of a paged listing."""

from __future__ import annotations

import requests
from bs4 import BeautifulSoup

AGENT = {"User-Agent": "Mozilla/5.0"}


def titles_on(page_number: int) -> list[str]:
    listing = requests.get(f"https://ssr1.scrape.center/page/{page_number}", headers=AGENT)
    markup = BeautifulSoup(listing.text, "html.parser")
    return [h.string for h in markup.find_all("h2", attrs={"class": "m-b-sm"})]


for number in (1, 2):
    for movie in titles_on(number):
        print("movie:", movie)
