"""Summaries of a catalog: per category counts, value and what is out of stock."""

from collections import defaultdict
from datetime import datetime, timezone


def summarise(products):
    by_category = defaultdict(list)
    for product in products:
        by_category[product.category].append(product)
    rows = []
    for category in sorted(by_category):
        items = by_category[category]
        value = sum((p.price for p in items if p.in_stock), start=type(items[0].price)(0))
        missing = sorted(p.sku for p in items if not p.in_stock)
        rows.append((category, len(items), value, missing))
    return rows


def render(rows, pages, elapsed):
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    lines = [f"catalog report {stamp} ({pages} page(s) in {elapsed:.2f}s)"]
    for category, count, value, missing in rows:
        note = f", out of stock: {', '.join(missing)}" if missing else ""
        lines.append(f"  {category:<14} {count:3d} products, in-stock value {value:>10}{note}")
    return "\n".join(lines)
