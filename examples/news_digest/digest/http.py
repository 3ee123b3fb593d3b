"""One configured HTTP session for the whole program."""

import requests
from requests.adapters import HTTPAdapter

USER_AGENT = "news-digest/1.2 (+https://example.com/digest)"


def make_session(retries: int = 3) -> requests.Session:
    """A session with our user agent, JSON by default and a few retries."""
    session = requests.Session()
    session.headers["User-Agent"] = USER_AGENT
    session.headers.update({"Accept": "application/json"})
    adapter = HTTPAdapter(max_retries=retries)
    session.mount("https://", adapter)
    return session
