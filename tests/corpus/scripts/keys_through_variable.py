# corpus: keys_through_variable (json)
# pattern seen in: (issue 12 report: post['data'][field]) :: post['data'][field]
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

FIELDS = ("title", "author", "score")
post = requests.get("https://www.reddit.com/r/python/about.json").json()
for field in FIELDS:
    print(f"field {field} =", post["data"][field])
