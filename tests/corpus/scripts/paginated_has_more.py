# corpus: paginated_has_more (json)
# pattern seen in: (code search result; cursor pagination pattern) :: has_more loop
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

API = "https://api.example-crm.com/v1/contacts"
records = []
cursor = None
while True:
    params = {"limit": 100}
    if cursor:
        params["starting_after"] = cursor
    page = requests.get(API, params=params).json()
    records.extend(page["data"])
    if not page["has_more"]:
        break
    cursor = page["data"][-1]["id"]
print("fetched records:", len(records))
