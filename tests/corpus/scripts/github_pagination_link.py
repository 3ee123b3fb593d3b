# corpus: github_pagination_link (json)
# pattern seen in: (code search result; GitHub REST pagination with next links) :: paged listing
# our own program written for automock's corpus; no text taken from the source
"""Count a repository's open issues, following each page's link to the next."""

from __future__ import annotations

import requests


def count_issues(first_page: str) -> int:
    seen, page_url = 0, first_page
    while page_url:
        page = requests.get(page_url, params={"state": "open"}).json()
        seen += sum(1 for _ in page["items"])
        page_url = page["next"]
    return seen


print("total issues:", count_issues("https://api.github.com/repos/psf/requests/issues"))
