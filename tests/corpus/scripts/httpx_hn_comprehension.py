# corpus: httpx_hn_comprehension (json)
# pattern seen in: (code search result; httpx comprehension over HN items) :: httpx HN
# our own program written for automock's corpus; no text taken from the source
"""Three top stories with httpx, the items fetched in a list comprehension."""

from __future__ import annotations

import httpx

FEED = "https://hacker-news.firebaseio.com/v0"

first_three = httpx.get(f"{FEED}/topstories.json").json()[:3]
items = [httpx.get(f"{FEED}/item/{n}.json").json() for n in first_three]
for item in items:
    print("story:", item["title"], item["score"])
