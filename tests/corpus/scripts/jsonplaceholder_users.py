# corpus: jsonplaceholder_users (json)
# pattern seen in: github.com/deepvr789/FS-FEB :: python/invokeapi/api.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

response = requests.get("https://jsonplaceholder.typicode.com/users")
users_list = response.json()
for user in users_list:
    print("user:", user["id"], user["username"])
