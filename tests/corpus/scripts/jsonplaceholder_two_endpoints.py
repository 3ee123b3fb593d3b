# corpus: jsonplaceholder_two_endpoints (json)
# pattern seen in: (code search result; repository not named) :: posts/1 and posts
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

response1 = requests.get("https://jsonplaceholder.typicode.com/posts/1")
data = response1.json()
print(f"Title: {data['title']}")
print(f"User ID: {data['userId'] + 0}")

responseposts = requests.get("https://jsonplaceholder.typicode.com/posts")
posts = responseposts.json()
print(f"Total posts: {len(posts)}")
print(f"Title of first post: {posts[0]['title']}")
