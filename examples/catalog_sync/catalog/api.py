"""A small client for the catalog API: log in once, then page until ``next`` is null."""

import logging
import time

import httpx

from .models import Product, money

log = logging.getLogger(__name__)

SESSION_COOKIE = "catalog_session"


class LoginError(Exception):
    """The API refused our credentials or set no session cookie."""


def retrying(call, attempts=3, pause=0.5):
    """``call()`` again after a transport error or a 5xx, waiting a little longer each time."""
    for attempt in range(1, attempts + 1):
        try:
            response = call()
            if response.status_code < 500:
                return response
            log.warning("server error %s, attempt %d", response.status_code, attempt)
        except httpx.TransportError as exc:
            if attempt == attempts:
                raise
            log.warning("transport error %s, attempt %d", exc, attempt)
        time.sleep(pause * attempt)
    return response


def to_product(item):
    """One API item as a Product; the API sends prices as strings or numbers."""
    return Product(
        sku=str(item["sku"]).upper(),
        name=" ".join(str(item["name"]).split()),
        category=str(item.get("category") or "uncategorised").lower(),
        price=money(item["price"]),
        in_stock=bool(item["in_stock"]),
    )


class CatalogAPI:
    def __init__(self, base_url, page_size=100, max_pages=50):
        self.page_size = page_size
        self.max_pages = max_pages
        self.pages_read = 0
        self.user = None
        self.client = httpx.Client(
            base_url=base_url,
            headers={"Accept": "application/json", "User-Agent": "catalog-sync/2.1"},
            timeout=httpx.Timeout(10.0),
        )

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.client.close()

    def login(self, user, password):
        """POST our credentials; the API answers with a session cookie the client keeps."""
        response = retrying(
            lambda: self.client.post("/v2/login", json={"user": user, "password": password})
        )
        if response.status_code in (401, 403):
            raise LoginError(f"the catalog API refused user {user!r}")
        response.raise_for_status()
        if SESSION_COOKIE not in self.client.cookies:
            raise LoginError("the catalog API set no session cookie")
        self.user = response.json()["user"]["display_name"]
        log.info("logged in as %s", self.user)

    def products(self):
        """Every product, following the API's ``next`` links page after page."""
        found = []
        url, params = "/v2/products", {"page_size": self.page_size}
        while url is not None and self.pages_read < self.max_pages:
            response = retrying(lambda: self.client.get(url, params=params))
            response.raise_for_status()
            page = response.json()
            self.pages_read += 1
            for item in page["items"]:
                try:
                    found.append(to_product(item))
                except (KeyError, ValueError, ArithmeticError) as exc:
                    log.warning("skipping a malformed item: %r", exc)
            url, params = page["next"], None  # the link carries its own query
        return found
