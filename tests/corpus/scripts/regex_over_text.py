# corpus: regex_over_text (html)
# pattern seen in: (code search result; regex over page text) :: regex price
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import re

import requests

r = requests.get("https://www.python.org/downloads/")
m = re.search(r"Download Python (\d+\.\d+\.\d+)", r.text)
if m:
    print("version:", m.group(1))
else:
    print("not found")
