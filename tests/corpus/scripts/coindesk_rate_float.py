# corpus: coindesk_rate_float (json)
# pattern seen in: (code search result; repository not named) :: btc tool
# our own program written for automock's corpus; no text taken from the source
"""Bitcoin in dollars, formatted with thousands separators; errors become a dict."""

from __future__ import annotations

import requests

FEED = "https://api.coindesk.com/v1/bpi/currentprice.json"


def dollar_quote() -> dict[str, str]:
    try:
        reply = requests.get(FEED)
        reply.raise_for_status()
        value = reply.json()["bpi"]["USD"]["rate_float"]
    except requests.RequestException as failure:
        return {"error": str(failure)}
    return {"price": f"${value:,.2f}"}


quote = dollar_quote()
if "price" in quote:
    print("price:", quote["price"])
