# corpus: bs4_url_titles_loop (html)
# pattern seen in: (code search result; get_url_titles by Corey) :: get_url_titles
# our own program written for automock's corpus; no text taken from the source
# held out: added after the drafter work, run once without tuning
"""Number each site and show its page title, or note that it failed."""

import requests
from bs4 import BeautifulSoup

SITES = ["https://www.python.org", "https://pypi.org"]


def numbered_titles(sites):
    lines = []
    for number, site in enumerate(sites, start=1):
        reply = requests.get(site)
        try:
            reply.raise_for_status()
        except requests.exceptions.HTTPError:
            lines.append(f"{number}: unreachable")
            continue
        title = BeautifulSoup(reply.content, "html.parser").title.string
        lines.append(f"{number}: {title}")
    return lines


print("\n".join(numbered_titles(SITES)))
