"""Summaries of a catalog: per category counts, value and what is out of stock."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal
from functools import lru_cache


@dataclass(frozen=True)
class CategoryRow:
    category: str
    count: int
    value: Decimal
    missing: tuple


@lru_cache(maxsize=None)
def label(category):
    """``"home-garden"`` -> ``"Home Garden"``, computed once per category."""
    return " ".join(part.capitalize() for part in category.replace("_", "-").split("-"))


def summarise(products):
    by_category = defaultdict(list)
    for product in products:
        by_category[product.category].append(product)
    rows = []
    for category in sorted(by_category):
        items = by_category[category]
        value = sum((p.price for p in items if p.in_stock), Decimal("0"))
        missing = tuple(sorted(p.sku for p in items if not p.in_stock))
        rows.append(CategoryRow(category, len(items), value, missing))
    return rows


def render(rows, pages, elapsed, currency="EUR", user=None):
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    who = f" for {user}" if user else ""
    lines = [f"catalog report {stamp}{who} ({pages} page(s) in {elapsed:.2f}s)"]
    for row in rows:
        note = f", out of stock: {', '.join(row.missing)}" if row.missing else ""
        lines.append(
            f"  {label(row.category):<14} {row.count:3d} products, "
            f"in-stock value {row.value:>10} {currency}{note}"
        )
    total = sum((row.value for row in rows), Decimal("0"))
    lines.append(f"  {'total':<14} {sum(r.count for r in rows):3d} products, {total} {currency}")
    return "\n".join(lines)
