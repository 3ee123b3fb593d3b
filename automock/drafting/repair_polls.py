"""A polling loop that waits for a number: its ending response pushes numbers past it.

``while True: price = float(get(URL).json()["usd"]); if price >= 90000: break`` never
ends on a drafted price, and the run shows no comparison to copy (the value was converted
before it was compared). When nothing else in the body can end the loop (no next page, no
list to empty, no compared string), the ending response's numbers go far above any
threshold such a loop waits for; if the loop still repeats, to zero (it waits for a value
to drop).
"""

from __future__ import annotations

from typing import Any

__all__ = ["HIGH", "is_high", "numbers_to"]

HIGH = 10**9


def _number(node: Any) -> bool:
    return isinstance(node, int | float) and not isinstance(node, bool)


def _set(node: Any, to: int, seen: list[None]) -> Any:
    if isinstance(node, dict):
        return {k: _set(v, to, seen) for k, v in node.items()}
    if isinstance(node, list):
        return [_set(v, to, seen) for v in node]
    if _number(node):
        seen.append(None)
        return type(node)(to)
    return node


def numbers_to(body: Any, to: int) -> Any | None:
    """``body`` with every number it holds set to ``to`` (None when it holds none)."""
    seen: list[None] = []
    pushed = _set(body, to, seen)
    return pushed if seen else None


def is_high(body: Any) -> bool:
    """Whether ``body`` holds a number pushed high already (a second try goes to zero)."""
    if isinstance(body, dict):
        return any(is_high(v) for v in body.values())
    if isinstance(body, list):
        return any(is_high(v) for v in body)
    return _number(body) and body == HIGH
