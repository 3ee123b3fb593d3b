# corpus: paginated_has_more (json)
# pattern seen in: (code search result; cursor pagination pattern) :: has_more loop
# our own program written for automock's corpus; no text taken from the source
"""Every contact of a cursor-paged API: ask for the next page while has_more says so."""

from __future__ import annotations

import requests

CONTACTS = "https://api.example-crm.com/v1/contacts"


def all_contacts() -> list[dict]:
    gathered: list[dict] = []
    after = None
    while True:
        query = {"limit": 100} | ({"starting_after": after} if after else {})
        page = requests.get(CONTACTS, params=query).json()
        gathered += page["data"]
        if not page["has_more"]:
            return gathered
        after = page["data"][-1]["id"]


print("fetched records:", len(all_contacts()))
