# corpus: coingecko_params (json)
# pattern seen in: github.com/themule888/crypto-arb-learning :: src/api_practice.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

url = "https://api.coingecko.com/api/v3/simple/price"
params = {"ids": "bitcoin", "vs_currencies": "usd"}
response = requests.get(url, params=params)
if response.status_code == 200:
    data = response.json()
    price = data["bitcoin"]["usd"]
    print(f"Bitcoin price: ${price:,.2f}")
