# corpus: bs4_id_price (html)
# source: (code search result; product page by id) :: price by id
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests
from bs4 import BeautifulSoup

resp = requests.get("https://shop.example.com/item/42")
soup = BeautifulSoup(resp.text, "html.parser")
price = float(soup.find(id="price").text.strip().lstrip("$"))
name = soup.find("h1", class_="product-name").text
print(f"price now: {name} {price:.2f}")
