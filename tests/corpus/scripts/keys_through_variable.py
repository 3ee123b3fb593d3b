# corpus: keys_through_variable (json)
# pattern seen in: (issue 12 report: post['data'][field]) :: post['data'][field]
# our own program written for automock's corpus; no text taken from the source
"""A few fields of a subreddit's description, each key held in a loop variable."""

from __future__ import annotations

import requests

WANTED = ("title", "author", "score")

about = requests.get("https://www.reddit.com/r/python/about.json").json()
details = about["data"]
for key in WANTED:
    print(f"field {key} =", details[key])
