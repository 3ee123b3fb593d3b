# corpus: join_tags (json)
# source: (code search result; tags joined) :: tags join
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests

resp = requests.get("https://dummyjson.com/products/1")
product = resp.json()
print("product:", product["title"].upper())
print("tags:", ", ".join(product["tags"]))
print("discounted:", round(product["price"] * (1 - product["discountPercentage"] / 100), 2))
