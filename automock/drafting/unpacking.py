"""Names bound by unpacking a response value: ``for sym, price, change in reader:``.

A row (or a JSON array) unpacked into N names has N items: the row gets ``count:N``, as
``row[N - 1]`` would give it, and each name is one of its items. A tuple the flow already
knows (``for k, v in d.items()``) is unpacked as it is.
"""

from __future__ import annotations

import ast
from typing import Any

from automock.drafting.literals import Ref

__all__ = ["unpacked"]


def unpacked(flow: Any, target: ast.Tuple | ast.List, value: Any) -> tuple[Any, ...]:
    """The values the names of ``target`` get from ``value`` (none when unknown)."""
    if isinstance(value, tuple):
        return value
    plain = all(isinstance(e, ast.Name) for e in target.elts)
    if not isinstance(value, Ref) or value.wrap or not plain or not value.path:
        return ()
    row = value.path[:1] == ("csv",) and value.path[-1] == "index"
    if not (row or value.path[:1] == ("json",)):
        return ()
    if len(target.elts) > 1:
        flow.note(value.child(f"count:{min(len(target.elts), 24)}"))
    item = value.child("index")
    flow.note(item)
    return tuple(item for _ in target.elts)
