# corpus: join_tags (json)
# pattern seen in: (code search result; tags joined) :: tags join
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

resp = requests.get("https://dummyjson.com/products/1")
product = resp.json()
print("product:", product["title"].upper())
print("tags:", ", ".join(product["tags"]))
print("discounted:", round(product["price"] * (1 - product["discountPercentage"] / 100), 2))
