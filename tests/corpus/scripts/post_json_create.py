# corpus: post_json_create (json)
# pattern seen in: github.com/Vladgavr96/gda :: http/ozon.py
# our own program written for automock's corpus; no text taken from the source
"""Create a post with a JSON body and show the id the API gives it."""

from __future__ import annotations

import requests

NEW_POST = {"userId": 1, "title": "python test", "body": "text"}

made = requests.post(url="https://jsonplaceholder.typicode.com/posts", json=NEW_POST)
if made.status_code in (200, 201):
    print("created post id", made.json()["id"])
