# corpus: rates_constant_pair (json)
# source: (issue 12 report: data['rates'][PAIR]) :: rates by constant
# licence: reconstruction of a pattern reported in issue 12
from __future__ import annotations

import requests

PAIR = "USD"
API = "https://open.er-api.com/v6/latest/EUR"

data = requests.get(API, timeout=10).json()
rate = data["rates"][PAIR]
print(f"1 EUR = {rate:.4f} {PAIR}")
