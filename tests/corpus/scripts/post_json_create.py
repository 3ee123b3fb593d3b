# corpus: post_json_create (json)
# pattern seen in: github.com/Vladgavr96/gda :: http/ozon.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

data = {"userId": 1, "title": "python test", "body": "text"}
res = requests.post(url="https://jsonplaceholder.typicode.com/posts", json=data)
if res.status_code in (200, 201):
    print("created post id", res.json()["id"])
