# corpus: bs4_id_price (html)
# pattern seen in: (code search result; product page by id) :: price by id
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

resp = requests.get("https://shop.example.com/item/42")
soup = BeautifulSoup(resp.text, "html.parser")
price = float(soup.find(id="price").text.strip().lstrip("$"))
name = soup.find("h1", class_="product-name").text
print(f"price now: {name} {price:.2f}")
