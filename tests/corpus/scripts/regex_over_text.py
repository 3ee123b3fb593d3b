# corpus: regex_over_text (html)
# pattern seen in: (code search result; regex over page text) :: regex price
# our own program written for automock's corpus; no text taken from the source
"""The newest release number, found by a regular expression in a downloads page."""

from __future__ import annotations

import re

import requests

RELEASE = re.compile(r"Download Python (\d+\.\d+\.\d+)")

found = RELEASE.search(requests.get("https://www.python.org/downloads/").text)
print("version:", found.group(1) if found else "not found")
