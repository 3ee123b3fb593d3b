"""Texts the code reads as a table by hand: split into lines, each line split on a
delimiter (``text.split("\\r\\n")`` then ``line.split("\\t")``, ``splitlines()`` then
``split(",")``). Such a body is drafted as a header and three rows of numbers, in that
delimiter and that line ending, so a cell converted with ``float`` converts.
"""

from __future__ import annotations

from typing import Any

from automock.drafting.literals import Ref
from automock.drafting.values import plausible

__all__ = ["note_split", "split_table"]

_LINE_ENDS = ("\n", "\r\n")
_DELIMITERS = ("\t", ",", ";", "|")
_HEADER = ("id", "value", "weight", "count", "score")


def note_split(flow: Any, base: Ref, name: str, literal: str | None) -> None:
    """Record ``base.split(literal)`` (or ``base.splitlines()``) of a response's text."""
    if name == "splitlines":
        literal = "\n"
    elif name not in ("split", "rsplit") or literal not in (*_LINE_ENDS, *_DELIMITERS):
        return
    splits: dict[int, dict[str, None]] = flow.module.memo.setdefault("text_splits", {})
    splits.setdefault(base.site, {})[literal] = None


def split_table(flow: Any, site: int, salt: int) -> str:
    """The table the text of ``site`` is read as (empty when the code does not split it
    into lines and then on a delimiter)."""
    splits: dict[str, None] = flow.module.memo.get("text_splits", {}).get(site, {})
    end = next((e for e in reversed(_LINE_ENDS) if e in splits), None)
    sep = next((d for d in _DELIMITERS if d in splits), None)
    if end is None or sep is None:
        return ""
    rows = [sep.join(_HEADER)]
    for i in range(3):
        rows.append(sep.join(str(_number(name, salt + i)) for name in _HEADER))
    return end.join(rows) + end


def _number(name: str, index: int) -> int | float:
    value = plausible(name, index, "int" if name in ("id", "count") else "float")
    return value if isinstance(value, int | float) else 1
