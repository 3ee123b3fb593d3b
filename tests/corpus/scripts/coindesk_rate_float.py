# corpus: coindesk_rate_float (json)
# pattern seen in: (code search result; repository not named) :: btc tool
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests


def get_btcusd_price():
    url = "https://api.coindesk.com/v1/bpi/currentprice.json"
    try:
        response = requests.get(url)
        response.raise_for_status()
        data = response.json()
        btc_price_usd = data["bpi"]["USD"]["rate_float"]
        return {"price": f"${btc_price_usd:,.2f}"}
    except requests.RequestException as e:
        return {"error": str(e)}


result = get_btcusd_price()
if "price" in result:
    print("price:", result["price"])
