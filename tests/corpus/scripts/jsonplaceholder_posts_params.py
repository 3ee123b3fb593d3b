# corpus: jsonplaceholder_posts_params (json)
# pattern seen in: (code search result; repository not named) :: get_posts
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

BASE_URL = "https://jsonplaceholder.typicode.com"


def get_posts(user_id=None):
    url = f"{BASE_URL}/posts"
    params = {"userId": user_id} if user_id else {}
    response = requests.get(url, params=params)
    response.raise_for_status()
    posts = response.json()
    print(f"Retrieved {len(posts)} post(s):")
    for post in posts[:5]:
        print(f"Post #{post['id']} - {post['title']}")


if __name__ == "__main__":
    get_posts(user_id=1)
