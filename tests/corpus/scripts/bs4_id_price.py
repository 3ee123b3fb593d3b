# corpus: bs4_id_price (html)
# pattern seen in: (code search result; product page by id) :: price by id
# our own program written for automock's corpus; no text taken from the source
"""Read a product's name and price from its page (the price by element id)."""

from __future__ import annotations

import requests
from bs4 import BeautifulSoup

PRODUCT = "https://shop.example.com/item/42"


def name_and_price(url: str) -> tuple[str, float]:
    markup = BeautifulSoup(requests.get(url).text, "html.parser")
    amount = markup.find(id="price").text.strip().lstrip("$")
    return markup.find("h1", class_="product-name").text, float(amount)


label, cost = name_and_price(PRODUCT)
print(f"price now: {label} {cost:.2f}")
