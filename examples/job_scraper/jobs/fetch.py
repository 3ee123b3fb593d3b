"""Downloading listing pages, politely and only once each."""

import logging
import os
import time
import urllib.error
import urllib.request

from bs4 import BeautifulSoup

log = logging.getLogger(__name__)

USER_AGENT = os.environ.get("JOBS_USER_AGENT", "job-scraper/0.4 (+mailto:jobs@example.org)")
HEADERS = {"User-Agent": USER_AGENT, "Accept": "text/html", "Accept-Language": "en-GB"}


class FetchError(Exception):
    """A page could not be downloaded after every retry."""


class PageFetcher:
    """Fetches pages with retries and keeps each page it has read, keyed by URL."""

    def __init__(self, attempts=3, backoff=1.5, timeout=15):
        self.attempts = attempts
        self.backoff = backoff
        self.timeout = timeout
        self._pages = {}

    def download(self, url):
        request = urllib.request.Request(url, headers=HEADERS)
        for attempt in range(1, self.attempts + 1):
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    charset = response.headers.get_content_charset() or "utf-8"
                    return response.read().decode(charset, "replace")
            except urllib.error.HTTPError as exc:
                if exc.code < 500 or attempt == self.attempts:
                    raise FetchError(f"{url}: HTTP {exc.code}") from exc
            except urllib.error.URLError as exc:
                if attempt == self.attempts:
                    raise FetchError(f"{url}: {exc.reason}") from exc
            log.info("retrying %s (attempt %d)", url, attempt + 1)
            time.sleep(self.backoff**attempt)
        raise FetchError(url)

    def soup(self, url):
        """The parsed page at ``url``, downloaded at most once per run."""
        page = self._pages.get(url)
        if page is None:
            page = self._pages[url] = BeautifulSoup(self.download(url), "html.parser")
        return page
