# corpus: coindesk_class_get (json)
# pattern seen in: (code search result; CoinDesk client class) :: CoinDesk.get_prices
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
"""Bitcoin's rate in every currency of the price index, behind a small client class."""

import requests


class PriceIndex:
    @staticmethod
    def rates():
        reply = requests.get(url="https://api.coindesk.com/v1/bpi/currentprice.json")
        if reply.status_code != requests.codes.ok:
            return None, f"status {reply.status_code}"
        try:
            body = reply.json()
        except ValueError:
            return None, "the body is not JSON"
        index = body.get("bpi")
        if not index:
            return None, "no index in the body"
        return {currency: float(entry["rate_float"]) for currency, entry in index.items()}, None


table, problem = PriceIndex.rates()
if problem is None:
    for currency in sorted(table):
        print(f"BTC in {currency}: {table[currency]:.2f}")
