# corpus: hn_format_item (json)
# pattern seen in: (code search result; repository not named) :: hacker news top stories
# our own program written for automock's corpus; no text taken from the source
"""The top few stories' titles and links, item URLs filled in with str.format."""

from __future__ import annotations

import sys

import requests

TOP = "https://hacker-news.firebaseio.com/v0/topstories.json"
ITEM = "https://hacker-news.firebaseio.com/v0/item/{}.json"
HOW_MANY = 3

listing = requests.get(TOP)
if listing.status_code != 200:
    sys.exit(f"top stories: HTTP {listing.status_code}")
for story_id in listing.json()[:HOW_MANY]:
    reply = requests.get(ITEM.format(story_id))
    if reply.status_code != 200:
        continue
    story = reply.json()
    print(f"Title: {story.get('title')}")
    print(f"URL: {story.get('url', 'N/A')}")
