"""Walking libcst trees by hand: the fields that hold code, and dispatch tables.

libcst's ``CSTVisitor`` rebuilds every node on the way back up and visits all
whitespace, which made it the dominant cost of a scan. A hand-rolled walker
(:class:`automock.analysis.collect.Collector`) instead descends only into the
fields :func:`child_fields` lists, and dispatches through tables that
:func:`handlers` builds once from libcst-style ``visit_X``/``leave_X`` names.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TypeVar

import libcst as cst

__all__ = ["child_fields", "handlers", "is_node"]

T = TypeVar("T")

_SKIPPED_FIELDS = re.compile(
    r"whitespace.*|lpar|rpar|leading_lines|lines_after_decorators|header|footer|comma"
    r"|semicolon|trailing_whitespace|newline|equal|colon|asynchronous|operator|dot|relative"
)
_FIELDS: dict[type[cst.CSTNode], tuple[str, ...]] = {}
_IS_NODE: dict[type, bool] = {}


def child_fields(node_type: type[cst.CSTNode]) -> tuple[str, ...]:
    """Fields of ``node_type`` that can hold code (not whitespace or punctuation)."""
    names = _FIELDS.get(node_type)
    if names is None:
        names = tuple(
            f.name for f in dataclasses.fields(node_type) if not _SKIPPED_FIELDS.fullmatch(f.name)
        )
        _FIELDS[node_type] = names
    return names


def is_node(value: object) -> bool:
    """``isinstance(value, cst.CSTNode)``, memoised by type (a field may hold a str)."""
    kind = type(value)
    known = _IS_NODE.get(kind)
    if known is None:
        known = _IS_NODE[kind] = isinstance(value, cst.CSTNode)
    return known


def handlers(walker: type[T], prefix: str) -> dict[type, Callable[[T, cst.CSTNode], object]]:
    """Node type -> method of ``walker`` named ``prefix`` + the libcst class name."""
    table: dict[type, Callable[[T, cst.CSTNode], object]] = {}
    for attr in dir(walker):
        if attr.startswith(prefix):
            node_type = getattr(cst, attr[len(prefix) :], None)
            if isinstance(node_type, type):
                table[node_type] = getattr(walker, attr)
    return table
