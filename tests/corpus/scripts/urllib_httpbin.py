# corpus: urllib_httpbin (json)
# source: github.com/PacktPublishing/Mastering-Python-for-Networking-and-Security-Second-Edition :: chapter4/urllib.request/json_response.py
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import json
import urllib.request

url = "http://httpbin.org/get"

with urllib.request.urlopen(url) as response_json:
    data_json = json.loads(response_json.read().decode("utf-8"))
    print("origin:", data_json["origin"], data_json["url"])
