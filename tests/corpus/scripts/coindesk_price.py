# corpus: coindesk_price (json)
# source: github.com/microsoft/DevHomeAzureExtension :: src/AzureExtension/Assets/QuickStartPlayground/Samples/bitcoin-price-tracker/price_tracker.py
# licence: MIT (microsoft/DevHomeAzureExtension); copied verbatim
from __future__ import annotations

import requests

url = "https://api.coindesk.com/v1/bpi/currentprice.json"

response = requests.get(url)
data = response.json()

print("Bitcoin Price: $" + data["bpi"]["USD"]["rate"])
