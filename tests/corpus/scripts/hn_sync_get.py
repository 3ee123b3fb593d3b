# corpus: hn_sync_get (json)
# pattern seen in: github.com/gabrielsroka/hn :: hn_sync.py
# our own program written for automock's corpus; no text taken from the source
"""Top stories fetched one after another; an item the API returns empty is skipped."""

from __future__ import annotations

import requests

HOST = "https://hacker-news.firebaseio.com"
LIMIT = 3


def run() -> None:
    with requests.Session() as http:
        ranking = http.get(f"{HOST}/v0/topstories.json").json()
        for rank, story_id in enumerate(ranking[:LIMIT], start=1):
            story = http.get(f"{HOST}/v0/item/{story_id}.json").json()
            if not story:
                continue
            print(f"{rank:2}) {story['title']} | {story.get('url')}")
            thread = f"https://news.ycombinator.com/item?id={story['id']}"
            print(f"    {thread} | {story['by']} | {story['score']}")


run()
