# corpus: httpx_client_json (json)
# pattern seen in: (code search result; httpx client usage) :: httpx client
# our own program written for automock's corpus; no text taken from the source
"""A country's common name and population in thousands, through an httpx client."""

from __future__ import annotations

import httpx

API = httpx.Client(base_url="https://restcountries.com/v3.1", timeout=10)

with API as client:
    reply = client.get("/name/portugal")
    reply.raise_for_status()
    matches = reply.json()
for match in matches:
    print("country:", match["name"]["common"], match["population"] // 1000, "thousand")
