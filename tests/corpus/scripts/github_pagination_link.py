# corpus: github_pagination_link (json)
# pattern seen in: (code search result; GitHub REST pagination with next links) :: paged listing
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

url = "https://api.github.com/repos/psf/requests/issues"
count = 0
while url:
    resp = requests.get(url, params={"state": "open"})
    data = resp.json()
    for issue in data["items"]:
        count += 1
    url = data["next"]
print("total issues:", count)
