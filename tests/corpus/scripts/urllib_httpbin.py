# corpus: urllib_httpbin (json)
# pattern seen in: github.com/PacktPublishing/Mastering-Python-for-Networking-and-Security-Second-Edition :: chapter4/urllib.request/json_response.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import json
import urllib.request

url = "http://httpbin.org/get"

with urllib.request.urlopen(url) as response_json:
    data_json = json.loads(response_json.read().decode("utf-8"))
    print("origin:", data_json["origin"], data_json["url"])
