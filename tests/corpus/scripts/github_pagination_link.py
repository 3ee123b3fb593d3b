# corpus: github_pagination_link (json)
# pattern seen in: (code search result; GitHub REST pagination with next links) :: paged listing
# our own program written for automock's corpus; no text taken from the source
"""Count a repository's open issues, following each page's link to the next."""

from __future__ import annotations

import requests


next_page = "https://api.github.com/repos/psf/requests/issues"
seen = 0
while next_page:
    page = requests.get(next_page, params={"state": "open"}).json()
    seen += sum(1 for _ in page["items"])
    next_page = page["next"]
print("total issues:", seen)
