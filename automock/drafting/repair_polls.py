"""A polling loop that waits for a number: its ending response pushes numbers past it.

``while True: price = float(get(URL).json()["usd"]); if price >= 90000: break`` never
ends on a drafted price, and the run shows no comparison to copy (the value was converted
before it was compared). When nothing else in the body can end the loop (no next page, no
list to empty, no compared string), the ending response's numbers go far above any
threshold such a loop waits for; if the loop still repeats, to zero (it waits for a value
to drop).

A loop over pages of text (HTML, XML) that follows a link to the next page never ends on
a prefix stub, which serves the same page for every link: the ending response is the page
without the parts that name a next page (``class="next"``, ``rel="next"``), or else
without its links.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["HIGH", "is_high", "numbers_to", "text_pages_end"]

HIGH = 10**9
_NEXT = re.compile(
    r"""<(\w+)\b[^>]*\b(?:class|rel|id|aria-label)\s*=\s*["'][^"']*\bnext\b[^"']*["'][^>]*>"""
    r".*?</\1\s*>",
    re.IGNORECASE | re.DOTALL,
)
_LINK = re.compile(r"<a\b[^>]*\bhref\b[^>]*>.*?</a\s*>|<link\b[^>]*>.*?</link\s*>", re.I | re.S)


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


def text_pages_end(data: dict[str, Any], first: Mapping[Any, Any]) -> list[str]:
    """``data`` (a stub with a ``text`` body served until the run gave up) given a
    ``sequence`` whose second page has no next page (module docstring); the pointer changed,
    none when the text holds nothing to take away."""
    text = first.get("text")
    if not isinstance(text, str):
        return []
    ended = _NEXT.sub("", text)
    if ended == text:
        ended = _LINK.sub("", text)
    if ended == text:
        return []
    data["sequence"] = [dict(first), {**first, "text": ended}]
    data.pop("text", None)
    return ["/sequence/1/text"]
