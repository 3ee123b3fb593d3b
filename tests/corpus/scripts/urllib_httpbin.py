# corpus: urllib_httpbin (json)
# pattern seen in: github.com/PacktPublishing/Mastering-Python-for-Networking-and-Security-Second-Edition :: chapter4/urllib.request/json_response.py
# our own program written for automock's corpus; no text taken from the source
"""Where an echo service says the request came from, read with urllib."""

from __future__ import annotations

import json
import urllib.request

ECHO = "http://httpbin.org/get"

with urllib.request.urlopen(ECHO) as reply:
    echoed = json.loads(reply.read().decode("utf-8"))
print("origin:", echoed["origin"], echoed["url"])
