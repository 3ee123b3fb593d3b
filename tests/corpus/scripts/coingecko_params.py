# corpus: coingecko_params (json)
# source: github.com/themule888/crypto-arb-learning :: src/api_practice.py
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests

url = "https://api.coingecko.com/api/v3/simple/price"
params = {"ids": "bitcoin", "vs_currencies": "usd"}
response = requests.get(url, params=params)
if response.status_code == 200:
    data = response.json()
    price = data["bitcoin"]["usd"]
    print(f"Bitcoin price: ${price:,.2f}")
