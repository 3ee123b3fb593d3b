# corpus: coindesk_price (json)
# pattern seen in: github.com/microsoft/DevHomeAzureExtension :: src/AzureExtension/Assets/QuickStartPlayground/Samples/bitcoin-price-tracker/price_tracker.py
# our own program written for automock's corpus; no text taken from the source
"""Show one currency's bitcoin rate: a GET, then three nested keys, then string concatenation."""

from __future__ import annotations

import requests

PRICE_FEED = "https://api.coindesk.com/v1/bpi/currentprice.json"


def usd_rate() -> str:
    payload = requests.get(PRICE_FEED, timeout=10).json()
    return payload["bpi"]["USD"]["rate"]


if __name__ == "__main__":
    print("Bitcoin Price: $" + usd_rate())
