# corpus: jsonplaceholder_users (json)
# source: github.com/deepvr789/FS-FEB :: python/invokeapi/api.py
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests

response = requests.get("https://jsonplaceholder.typicode.com/users")
users_list = response.json()
for user in users_list:
    print("user:", user["id"], user["username"])
