# corpus: jsonplaceholder_posts_params (json)
# pattern seen in: (code search result; repository not named) :: get_posts
# our own program written for automock's corpus; no text taken from the source
"""One user's posts, filtered by a query parameter, at most five shown."""

from __future__ import annotations

import requests

SITE = "https://jsonplaceholder.typicode.com"


def list_posts(author=None) -> None:
    query = {"userId": author} if author else {}
    reply = requests.get(f"{SITE}/posts", params=query)
    reply.raise_for_status()
    found = reply.json()
    print(f"Retrieved {len(found)} post(s):")
    for entry in found[:5]:
        print(f"Post #{entry['id']} - {entry['title']}")


if __name__ == "__main__":
    list_posts(author=1)
