# corpus: urllib_request_charset (json)
# pattern seen in: github.com/Teresito/CherryPy.Angular :: Project/BackEnd/API_Test/list_apis.py
# our own program written for automock's corpus; no text taken from the source
"""The names of a server's APIs, decoded with the charset the response declares."""

from __future__ import annotations

import json
import urllib.request

LISTING = "http://cs302.kiwi.land/api/list_apis"


def api_names(url: str) -> list[str]:
    reply = urllib.request.urlopen(urllib.request.Request(url))
    try:
        raw = reply.read()
        charset = reply.info().get_content_charset("utf-8")
    finally:
        reply.close()
    return list(json.loads(raw.decode(charset))["apis"])


for api in api_names(LISTING):
    print("api:", api)
