# corpus: bs4_select_quotes (html)
# pattern seen in: (code search result; quotes.toscrape.com with select) :: quotes
# our own program written for automock's corpus; no text taken from the source
"""Quotes and their authors, found with CSS selectors."""

from __future__ import annotations

import requests
from bs4 import BeautifulSoup


def quotes(url: str):
    markup = BeautifulSoup(requests.get(url).text, "html.parser")
    for block in markup.select("div.quote"):
        yield block.select_one("small.author").get_text(), block.select_one("span.text").get_text()


for who, said in quotes("http://quotes.toscrape.com/"):
    print(f"quote by {who}: {said}")
