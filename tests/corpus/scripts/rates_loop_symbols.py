# corpus: rates_loop_symbols (json)
# pattern seen in: github.com/noecamacho/currency-converter-shell :: README.md (converter usage)
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

SYMBOLS = ["USD", "GBP", "JPY"]

resp = requests.get("https://api.frankfurter.app/latest", params={"from": "EUR"})
resp.raise_for_status()
rates = resp.json()["rates"]
for code in SYMBOLS:
    print(f"converted: 100 EUR = {100 * rates[code]:.2f} {code}")
