# corpus: urllib_request_charset (json)
# pattern seen in: github.com/Teresito/CherryPy.Angular :: Project/BackEnd/API_Test/list_apis.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import json
import urllib.request

url = "http://cs302.kiwi.land/api/list_apis"
req = urllib.request.Request(url)
response = urllib.request.urlopen(req)
data = response.read()
encoding = response.info().get_content_charset("utf-8")
response.close()
JSON_object = json.loads(data.decode(encoding))
for name in JSON_object["apis"]:
    print("api:", name)
