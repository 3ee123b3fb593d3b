# corpus: rates_constant_pair (json)
# pattern seen in: (issue 12 report: data['rates'][PAIR]) :: rates by constant
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

PAIR = "USD"
API = "https://open.er-api.com/v6/latest/EUR"

data = requests.get(API, timeout=10).json()
rate = data["rates"][PAIR]
print(f"1 EUR = {rate:.4f} {PAIR}")
