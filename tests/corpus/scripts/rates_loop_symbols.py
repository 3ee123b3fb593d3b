# corpus: rates_loop_symbols (json)
# pattern seen in: github.com/noecamacho/currency-converter-shell :: README.md (converter usage)
# our own program written for automock's corpus; no text taken from the source
"""A hundred euros in a few currencies, today's rates fetched once."""

from __future__ import annotations

import requests

WANTED = ["USD", "GBP", "JPY"]


def euro_rates() -> dict[str, float]:
    reply = requests.get("https://api.frankfurter.app/latest", params={"from": "EUR"})
    reply.raise_for_status()
    return reply.json()["rates"]


rates = euro_rates()
for currency in WANTED:
    print(f"converted: 100 EUR = {100 * rates[currency]:.2f} {currency}")
