# corpus: bs4_books_articles (html)
# pattern seen in: (code search result; books.toscrape.com scraper) :: books
# our own program written for automock's corpus; no text taken from the source
"""List the books on the first catalogue page with their prices."""

from __future__ import annotations

import sys

import requests
from bs4 import BeautifulSoup


def books(page_url: str) -> list[tuple[str, str]]:
    reply = requests.get(page_url)
    if reply.status_code != 200:
        sys.exit("the catalogue did not answer")
    page = BeautifulSoup(reply.content, "html.parser")
    found = []
    for card in page.find_all("article", class_="product_pod"):
        found.append((card.h3.a["title"], card.find("p", class_="price_color").text))
    return found


for name, cost in books("https://books.toscrape.com"):
    print("book:", name, cost)
