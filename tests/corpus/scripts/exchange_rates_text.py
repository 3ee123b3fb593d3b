# corpus: exchange_rates_text (json)
# pattern seen in: (code search result; pattern from python.gotrained.com JSON API tutorial) :: exchange rates
# our own program written for automock's corpus; no text taken from the source
"""Two euro rates, parsed by hand from the response text and printed by concatenation."""

from __future__ import annotations

import json

import requests

LATEST = "https://api.exchangeratesapi.io/latest?symbols=USD,GBP"

body = json.loads(requests.get(LATEST).text)
day = body["date"]
for code in ("GBP", "USD"):
    print("On " + day + " EUR equals " + str(body["rates"][code]) + " " + code)
