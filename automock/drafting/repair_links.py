"""Repairs by rules for a drafted link the program sent as it is: make it absolute.

A scraper that passes an ``href`` read from a drafted page straight to the client
(``requests.get(a["href"])``) dies of a relative link: ``Invalid URL '/items/1': No
scheme supplied`` (requests), ``unknown url type: '/items/1'`` (urllib). The stub bodies
holding that link as an attribute value get it joined to their own URL, so the program's
next request goes to the same host (where a stub or the loop's request repair answers it).
"""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import urljoin

from automock.drafting.repaired import noted
from automock.plan.model import Plan

__all__ = ["absolute_links"]

_RELATIVE = (
    re.compile(r"Invalid URL '(?P<url>[^']+)': No scheme supplied"),  # requests
    re.compile(r"unknown url type: '?(?P<url>[^'\s]+)'?"),  # urllib
)


def _sent(exception: str) -> str | None:
    """The relative URL the program sent, from its exception (None when it names none)."""
    for pattern in _RELATIVE:
        found = pattern.search(exception)
        if found and "://" not in found["url"]:
            return found["url"]
    return None


def absolute_links(plan: Plan, exception: str, *, round: int) -> tuple[Plan, tuple[str, ...]]:
    """``plan`` with the relative link ``exception`` names made absolute in every stub body
    that holds it as an attribute value, and what was changed and why."""
    link = _sent(exception)
    if not link:
        return plan, ()
    entries = list(plan.entries)
    done: list[str] = []
    for i, entry in enumerate(entries):
        data = entry.data
        if entry.strategy != "stub_http" or not isinstance(data, dict):
            continue
        text, base = data.get("text"), data.get("url")
        if not isinstance(text, str) or not isinstance(base, str):
            continue
        absolute = urljoin(base, link)
        changed = re.sub(rf"""=(["']){re.escape(link)}\1""", rf"=\g<1>{absolute}\g<1>", text)
        if changed == text:
            continue
        why = f"the program sent the link {link!r} as a URL ({exception.split(':', 1)[0]})"
        entries[i] = noted(entry, "/data/text", why, round, data={**data, "text": changed})
        done.append(f"entries[{i}] /data/text: {link} made {absolute}: {why}")
    return replace(plan, entries=tuple(entries)), tuple(done)
