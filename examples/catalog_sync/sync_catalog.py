"""Read the whole catalog from the API and print a per-category report."""

import argparse
import json
import logging
import sys
import time

import httpx

from catalog.api import CatalogAPI, LoginError
from catalog.config import load_settings
from catalog.report import render, summarise

log = logging.getLogger("catalog")


def parse_args(argv=None, settings=None):
    settings = settings or load_settings()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--api", default=settings.api, help="base URL of the catalog API")
    parser.add_argument("--page-size", type=int, default=settings.page_size)
    parser.add_argument("--category", action="append", help="only these categories")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    return parser.parse_args(argv)


def main(argv=None):
    settings = load_settings()
    args = parse_args(argv, settings)
    logging.basicConfig(level=logging.WARNING - 10 * args.verbose, format="%(levelname)s %(message)s")
    started = time.perf_counter()
    try:
        with CatalogAPI(args.api, args.page_size, settings.max_pages) as api:
            api.login(settings.user, settings.password)
            products = api.products()
    except LoginError as exc:
        print(f"login failed: {exc}", file=sys.stderr)
        return 2
    except httpx.HTTPError as exc:
        print(f"catalog API unavailable: {exc}", file=sys.stderr)
        return 3
    elapsed = time.perf_counter() - started
    if args.category:
        wanted = {c.lower() for c in args.category}
        products = [p for p in products if p.category in wanted]
    if not products:
        print("the catalog is empty", file=sys.stderr)
        return 1
    rows = summarise(products)
    if args.json:
        print(json.dumps([{"category": r.category, "count": r.count, "value": str(r.value)} for r in rows]))
    else:
        print(render(rows, api.pages_read, elapsed, settings.currency, api.user))
    print(f"{len(products)} products synced")
    return 0


if __name__ == "__main__":
    sys.exit(main())
