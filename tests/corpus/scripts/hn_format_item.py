# corpus: hn_format_item (json)
# pattern seen in: (code search result; repository not named) :: hacker news top stories
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

top_stories_url = "https://hacker-news.firebaseio.com/v0/topstories.json"
item_url = "https://hacker-news.firebaseio.com/v0/item/{}.json"
num_stories = 3

response = requests.get(top_stories_url)
if response.status_code != 200:
    print(f"Failed: {response.status_code}")
    exit()
story_ids = response.json()[:num_stories]
for id in story_ids:
    story_response = requests.get(item_url.format(id))
    if story_response.status_code == 200:
        story = story_response.json()
        print(f"Title: {story.get('title')}")
        print(f"URL: {story.get('url', 'N/A')}")
