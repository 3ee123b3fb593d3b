# corpus: hn_session_top (json)
# pattern seen in: github.com/realrasengan/autobahn :: hn.py
# our own program written for automock's corpus; no text taken from the source
"""Top stories through one session: rank, title, link, then the discussion line."""

from __future__ import annotations

import requests

API = "https://hacker-news.firebaseio.com/v0"
SHOWN = 3


def show(session: requests.Session, rank: int, story_id: int) -> None:
    story = session.get(f"{API}/item/{story_id}.json").json()
    print(f"{rank:2}) {story['title']} | {story['url']}")
    discussion = f"https://news.ycombinator.com/item?id={story_id}"
    print(f"    {discussion} | {story['by']} | {story['score']}")


with requests.Session() as http:
    ranking = http.get(f"{API}/topstories.json").json()
    for place, ident in enumerate(ranking[:SHOWN], start=1):
        show(http, place, ident)
