# corpus: httpx_client_json (json)
# pattern seen in: (code search result; httpx client usage) :: httpx client
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import httpx

with httpx.Client(base_url="https://restcountries.com/v3.1", timeout=10) as client:
    resp = client.get("/name/portugal")
    resp.raise_for_status()
    for country in resp.json():
        print("country:", country["name"]["common"], country["population"] // 1000, "thousand")
