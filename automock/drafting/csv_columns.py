"""Columns a CSV row is read by through its header: ``row[col["city"]]`` where ``col`` maps
the header's names to their positions (``{h: i for i, h in enumerate(next(reader))}``), and
``row[header.index("city")]``. Either reads the column ``city``: the drafted header has it,
as ``row["city"]`` of a ``DictReader`` would give it. A cell the code keeps a row for
(``if row[1] == "Norway":``) holds that literal in the drafted rows.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from automock.drafting.literals import Ref
from automock.drafting.regex_flow import note_regex
from automock.drafting.text_filters import FAILURE, kept

__all__ = ["note_cell", "note_column"]


def _column_name(key: ast.expr) -> str | None:
    """``col["city"]`` or ``header.index("city")``: ``city``."""
    if isinstance(key, ast.Subscript) and isinstance(key.value, ast.Name):
        name = key.slice
    elif (
        isinstance(key, ast.Call)
        and isinstance(key.func, ast.Attribute)
        and key.func.attr == "index"
        and len(key.args) == 1
    ):
        name = key.args[0]
    else:
        return None
    if isinstance(name, ast.Constant) and isinstance(name.value, str) and name.value:
        return name.value
    return None


def note_column(flow: Any, base: Ref, key: ast.expr, number: str | None) -> None:
    """Note the column ``key`` names on the CSV row ``base`` (with ``number``, ``int`` or
    ``float``, when the cell is converted)."""
    if base.path[:1] != ("csv",) or base.path[-1] != "index":
        return
    name = _column_name(key)
    if name is None:
        return
    column = base.child(f"key:{name}")
    flow.note(column)
    if number:
        flow.hints.setdefault((column.site, column.path), number)


def note_cell(flow: Any, base: Ref, key: ast.expr) -> None:
    """``if row[1] == "Norway":`` on a CSV row (kept on, not given up): that column holds
    ``Norway``."""
    if base.path[:1] != ("csv",) or base.path[-1] != "index":
        return
    if not isinstance(key, ast.Constant) or type(key.value) is not int or key.value < 0:
        return
    read = flow.module.parents.get(id(key))
    test = flow.module.parents.get(id(read))
    if (
        not isinstance(test, ast.Compare)
        or len(test.ops) != 1
        or not isinstance(test.ops[0], ast.Eq)
    ):
        return
    other = test.comparators[0] if test.left is read else test.left
    text = other.value if isinstance(other, ast.Constant) else None
    if isinstance(text, str) and text.strip() and not FAILURE.search(text) and kept(flow, test):
        note_regex(flow, base.child(f"pos:{key.value}"), "^" + re.escape(text) + "$")
