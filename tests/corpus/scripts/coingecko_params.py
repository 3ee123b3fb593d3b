# corpus: coingecko_params (json)
# pattern seen in: github.com/themule888/crypto-arb-learning :: src/api_practice.py
# our own program written for automock's corpus; no text taken from the source
"""One coin's price in one currency, the query given as params."""

from __future__ import annotations

import requests

SIMPLE_PRICE = "https://api.coingecko.com/api/v3/simple/price"


def bitcoin_in_dollars() -> float | None:
    reply = requests.get(SIMPLE_PRICE, params={"ids": "bitcoin", "vs_currencies": "usd"})
    if reply.status_code != 200:
        return None
    return reply.json()["bitcoin"]["usd"]


btc = bitcoin_in_dollars()
if btc is not None:
    print(f"Bitcoin price: ${btc:,.2f}")
