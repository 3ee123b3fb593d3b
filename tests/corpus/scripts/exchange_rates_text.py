# corpus: exchange_rates_text (json)
# pattern seen in: (code search result; pattern from python.gotrained.com JSON API tutorial) :: exchange rates
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import json

import requests

url = "https://api.exchangeratesapi.io/latest?symbols=USD,GBP"
response = requests.get(url)
data = response.text
parsed = json.loads(data)
date = parsed["date"]
gbp_rate = parsed["rates"]["GBP"]
usd_rate = parsed["rates"]["USD"]
print("On " + date + " EUR equals " + str(gbp_rate) + " GBP")
print("On " + date + " EUR equals " + str(usd_rate) + " USD")
