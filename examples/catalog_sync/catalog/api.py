"""A small client for the catalog API: pages of products until ``next`` is null."""

import httpx

from .models import Product, money

DEFAULT_PAGE_SIZE = 50


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
    def __init__(self, base_url, token, page_size=DEFAULT_PAGE_SIZE):
        self.page_size = page_size
        self.pages_read = 0
        self.client = httpx.Client(
            base_url=base_url,
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
            timeout=httpx.Timeout(10.0),
        )

    def products(self):
        """Every product, following the API's ``next`` links page after page."""
        found = []
        response = self.client.get("/v2/products", params={"page_size": self.page_size})
        while True:
            response.raise_for_status()
            page = response.json()
            self.pages_read += 1
            found.extend(to_product(item) for item in page["items"])
            if page["next"] is None:
                return found
            response = self.client.get(page["next"])  # the link carries its own query

    def close(self):
        self.client.close()
