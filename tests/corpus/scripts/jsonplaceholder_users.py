# corpus: jsonplaceholder_users (json)
# pattern seen in: github.com/deepvr789/FS-FEB :: python/invokeapi/api.py
# our own program written for automock's corpus; no text taken from the source
"""Every user's id and login name."""

from __future__ import annotations

import requests

people = requests.get("https://jsonplaceholder.typicode.com/users").json()
for person in people:
    print("user:", person["id"], person["username"])
