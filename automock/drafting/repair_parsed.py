"""The value a repair writes where the program failed to parse a drafted string.

``int()`` gets a whole number, ``float()`` a decimal, ``strptime`` the plan's default day in
the program's own format, ``fromisoformat`` that day in ISO 8601 with its offset, and
``ip_address`` a documentation address. In a JSON body the leaf is replaced
(:func:`automock.drafting.repair._repair_parse`); in a text body (XML, HTML, CSV), where the
string has no path, every whole-word occurrence of it is (:func:`repair_in_text`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

__all__ = ["parsed_value", "repair_in_text"]


def parsed_value(parser: object, fmt: object = None) -> str | None:
    """What ``parser`` (``int``, ``float``, ``strptime`` with ``fmt``) accepts; None: unknown."""
    if parser == "int":
        return "42"
    if parser == "float":
        return "42.5"
    if parser == "isoformat":  # datetime.fromisoformat, dateutil: the plan's default day
        return "2023-12-01T12:00:00+00:00"
    if parser == "ip_address":
        return "192.0.2.10"  # an address kept for documentation (RFC 5737)
    if parser == "strptime" and isinstance(fmt, str):
        try:
            return datetime(2023, 12, 1, 12, 0, 0).strftime(fmt)
        except ValueError:
            return None
    return None


def repair_in_text(body: dict[str, Any], prefix: str, record: Mapping[str, Any]) -> list[str]:
    """``body``'s ``text`` with the string the program failed to parse replaced, wherever
    it stands as a whole word; the pointer of what changed."""
    text, value = body.get("text"), record.get("value")
    new = parsed_value(record.get("parser"), record.get("format"))
    if not isinstance(text, str) or not isinstance(value, str) or not value or new is None:
        return []
    pattern = re.compile(rf"(?<![\w-]){re.escape(value)}(?![\w-])")
    changed = pattern.sub(lambda _: new, text)
    if changed == text:
        return []
    body["text"] = changed
    return [f"{prefix}/text"]
