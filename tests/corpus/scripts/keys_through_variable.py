# corpus: keys_through_variable (json)
# source: (issue 12 report: post['data'][field]) :: post['data'][field]
# licence: reconstruction of a pattern reported in issue 12
from __future__ import annotations

import requests

FIELDS = ("title", "author", "score")
post = requests.get("https://www.reddit.com/r/python/about.json").json()
for field in FIELDS:
    print(f"field {field} =", post["data"][field])
