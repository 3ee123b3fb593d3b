# corpus: httpx_client_json (json)
# source: (code search result; httpx client usage) :: httpx client
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import httpx

with httpx.Client(base_url="https://restcountries.com/v3.1", timeout=10) as client:
    resp = client.get("/name/portugal")
    resp.raise_for_status()
    for country in resp.json():
        print("country:", country["name"]["common"], country["population"] // 1000, "thousand")
