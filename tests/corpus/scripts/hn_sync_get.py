# corpus: hn_sync_get (json)
# pattern seen in: github.com/gabrielsroka/hn :: hn_sync.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

total = 3
url = "https://hacker-news.firebaseio.com"


def main():
    with requests.Session() as session:
        r = session.get(f"{url}/v0/topstories.json")
        ids = r.json()
        for i, id in enumerate(ids[:total], start=1):
            r = session.get(f"{url}/v0/item/{id}.json")
            item = r.json()
            if item:
                print(f"{i:2}) {item['title']} | {item.get('url')}")
                print(
                    f"    https://news.ycombinator.com/item?id={item['id']} | {item['by']} | {item['score']}"
                )


main()
