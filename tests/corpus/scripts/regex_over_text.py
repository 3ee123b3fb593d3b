# corpus: regex_over_text (html)
# source: (code search result; regex over page text) :: regex price
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import re

import requests

r = requests.get("https://www.python.org/downloads/")
m = re.search(r"Download Python (\d+\.\d+\.\d+)", r.text)
if m:
    print("version:", m.group(1))
else:
    print("not found")
