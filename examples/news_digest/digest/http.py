"""One configured HTTP session for the whole program, and a retry helper."""

import functools
import logging
import os
import time

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

log = logging.getLogger(__name__)

USER_AGENT = "news-digest/1.3 (+https://example.com/digest)"
TRANSIENT = (requests.ConnectionError, requests.Timeout)


def make_session(retries=3, backoff=0.5, api_key=None):
    """A session with our user agent, JSON by default and retries on 5xx."""
    session = requests.Session()
    session.headers["User-Agent"] = USER_AGENT
    session.headers.update({"Accept": "application/json"})
    api_key = api_key or os.environ.get("NEWS_API_KEY")
    if api_key:
        session.headers["X-Api-Key"] = api_key
    retry = Retry(
        total=retries,
        backoff_factor=backoff,
        status_forcelist=(500, 502, 503, 504),
        allowed_methods=frozenset({"GET"}),
    )
    adapter = HTTPAdapter(max_retries=retry, pool_maxsize=8)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session


def with_retries(attempts=3, delay=0.2):
    """Call again after a dropped connection or a timeout, waiting longer each time."""

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for attempt in range(1, attempts + 1):
                try:
                    return func(*args, **kwargs)
                except TRANSIENT as exc:
                    if attempt == attempts:
                        raise
                    log.warning("%s failed (%s), try %d of %d", func.__name__, exc, attempt, attempts)
                    time.sleep(delay * attempt)
            return None

        return wrapper

    return decorate
