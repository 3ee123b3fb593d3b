# corpus: rates_constant_pair (json)
# pattern seen in: (issue 12 report: data['rates'][PAIR]) :: rates by constant
# our own program written for automock's corpus; no text taken from the source
"""The euro in one other currency, the currency code kept in a constant."""

from __future__ import annotations

import requests

TARGET = "USD"

table = requests.get("https://open.er-api.com/v6/latest/EUR", timeout=10).json()["rates"]
print(f"1 EUR = {table[TARGET]:.4f} {TARGET}")
