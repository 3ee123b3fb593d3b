# corpus: jsonplaceholder_two_endpoints (json)
# pattern seen in: (code search result; repository not named) :: posts/1 and posts
# our own program written for automock's corpus; no text taken from the source
"""One post, then all posts: two endpoints of the same API."""

from __future__ import annotations

import requests

SITE = "https://jsonplaceholder.typicode.com"

single = requests.get(f"{SITE}/posts/1").json()
print(f"Title: {single['title']}")
print(f"User ID: {single['userId'] + 0}")

every = requests.get(f"{SITE}/posts").json()
print(f"Total posts: {len(every)}")
print(f"Title of first post: {every[0]['title']}")
