# corpus: hn_session_top (json)
# pattern seen in: github.com/realrasengan/autobahn :: hn.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

total = 3
url = "https://hacker-news.firebaseio.com/v0"

with requests.Session() as session:
    ids = session.get(f"{url}/topstories.json").json()
    for i, id in enumerate(ids[:total], start=1):
        item = session.get(f"{url}/item/{id}.json").json()
        print(f"{i:2}) {item['title']} | {item['url']}")
        print(f"    https://news.ycombinator.com/item?id={id} | {item['by']} | {item['score']}")
