# corpus: join_tags (json)
# pattern seen in: (code search result; tags joined) :: tags join
# our own program written for automock's corpus; no text taken from the source
"""One product: its name shouted, its tags joined, its price after the discount."""

from __future__ import annotations

import requests

item = requests.get("https://dummyjson.com/products/1").json()
after = item["price"] * (1 - item["discountPercentage"] / 100)
print("product:", item["title"].upper())
print("tags:", ", ".join(item["tags"]))
print("discounted:", round(after, 2))
