# corpus: post_json_create (json)
# source: github.com/Vladgavr96/gda :: http/ozon.py
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests

data = {"userId": 1, "title": "python test", "body": "text"}
res = requests.post(url="https://jsonplaceholder.typicode.com/posts", json=data)
if res.status_code in (200, 201):
    print("created post id", res.json()["id"])
