# corpus: httpx_hn_comprehension (json)
# pattern seen in: (code search result; httpx comprehension over HN items) :: httpx HN
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import httpx

ids = httpx.get("https://hacker-news.firebaseio.com/v0/topstories.json").json()[:3]
stories = [httpx.get(f"https://hacker-news.firebaseio.com/v0/item/{id}.json").json() for id in ids]
for s in stories:
    print("story:", s["title"], s["score"])
