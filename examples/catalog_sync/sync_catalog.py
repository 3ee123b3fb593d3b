"""Read the whole catalog from the API and print a per-category report."""

import os
import sys
import time

from catalog.api import CatalogAPI
from catalog.report import render, summarise


def main():
    token = os.environ.get("CATALOG_TOKEN", "dev-token")
    api = CatalogAPI("https://catalog.example.com", token, page_size=100)
    started = time.perf_counter()
    try:
        products = api.products()
    finally:
        api.close()
    elapsed = time.perf_counter() - started
    if not products:
        print("the catalog is empty", file=sys.stderr)
        return 1
    print(render(summarise(products), api.pages_read, elapsed))
    print(f"{len(products)} products synced")
    return 0


if __name__ == "__main__":
    sys.exit(main())
