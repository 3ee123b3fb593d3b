"""Literal string values that reach a name: loop variables, constants, parameters.

``for city in CITIES`` with ``CITIES = ["Lisbon", "Oslo"]`` binds ``city`` to
:class:`Lits` ``("Lisbon", "Oslo")``; a response subscripted by it
(``data["rates"][city]``) is drafted as an object keyed by those values, and
a request whose URL or ``params=`` carry it gets one stub per value.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from automock.drafting._source import Module

__all__ = [
    "KEY_SEP",
    "Lits",
    "Ref",
    "constant_hint",
    "constant_lits",
    "literal_strings",
    "looks_like_index",
    "loop_literals",
    "range_stop",
    "str_constant",
]

KEY_SEP = "\x1f"  # separates the keys of one ``key:`` path segment that stands for several
_INDEX_NAMES = ("i", "j", "k", "n", "idx", "index", "pos", "position", "num", "count")
# a position in a series by time or place (``temps[hour]``: an hourly list), never a key
_SERIES_NAMES = ("hour", "minute", "second", "offset", "nth")


@dataclass(frozen=True, slots=True)
class Ref:
    """A value derived from the response of HTTP call site ``site`` by ``path``."""

    site: int
    path: tuple[str, ...] = ()
    wrap: int = 0  # >0: a Python list whose elements are this value

    def child(self, segment: str) -> Ref:
        return Ref(self.site, (*self.path, segment))


@dataclass(frozen=True, slots=True)
class Lits:
    """A value known to be one of these literal strings."""

    values: tuple[str, ...]


def _strings(nodes: list[ast.expr]) -> tuple[str, ...] | None:
    out = [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return tuple(dict.fromkeys(out)) if out and len(out) == len(nodes) else None


def literal_strings(module: Module, node: ast.expr, *, _depth: int = 0) -> tuple[str, ...] | None:
    """The strings an iterable literal (or a constant naming one) holds; dicts give their keys."""
    if _depth > 4:
        return None
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return _strings(list(node.elts))
    if isinstance(node, ast.Dict):
        return _strings([k for k in node.keys if k is not None])
    if isinstance(node, ast.Name) and node.id in module.constants:
        return literal_strings(module, module.constants[node.id], _depth=_depth + 1)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("items", "keys")
    ):
        return literal_strings(module, node.func.value, _depth=_depth + 1)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.args
        and node.func.id in ("sorted", "list", "tuple", "set", "reversed")
    ):
        return literal_strings(module, node.args[0], _depth=_depth + 1)
    return None


def range_stop(module: Module, node: ast.expr) -> int | None:
    """The constant end of the ``range`` a loop variable ``node`` walks (``for i in
    range(14):`` gives 14 for ``i``), else None."""
    if not isinstance(node, ast.Name):
        return None
    current = module.parents.get(id(node))
    while current is not None:
        if isinstance(current, ast.For) and isinstance(current.target, ast.Name):
            loop = current.iter
            if current.target.id == node.id and isinstance(loop, ast.Call):
                stop = loop.args[1] if len(loop.args) > 1 else loop.args[0] if loop.args else None
                named = isinstance(loop.func, ast.Name) and loop.func.id == "range"
                if named and isinstance(stop, ast.Constant) and type(stop.value) is int:
                    return stop.value
        current = module.parents.get(id(current))
    return None


def looks_like_index(node: ast.expr) -> bool:
    """Whether a subscript key is an int: a number, arithmetic, ``len``, a name like ``i``."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int)
    if isinstance(node, ast.UnaryOp | ast.BinOp):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in ("len", "int", "min", "max", "abs")
    if isinstance(node, ast.Name):
        name = node.id.lower()
        return name in _INDEX_NAMES + _SERIES_NAMES or name.endswith(("_index", "_idx", "_i"))
    return False


def constant_hint(value: object) -> str | None:
    """The hint a response value gets from a constant it is compared with or defaults to."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, float):
        return "float"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    return None


def constant_lits(module: Module, name: str) -> Lits | None:
    """A module-level string constant as a one-value :class:`Lits` (else None)."""
    node = module.constants.get(name)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return Lits((node.value,))
    return None


def str_constant(module: Module, node: ast.Call) -> Lits | None:
    """``str(APP_ID)`` (or ``str(42)``) of a module-level int or string constant: its text,
    a response's key when the code looks a record up by it (``data[str(APP_ID)]``)."""
    if not (isinstance(node.func, ast.Name) and node.func.id == "str" and len(node.args) == 1):
        return None
    given = node.args[0]
    value = module.constants.get(given.id) if isinstance(given, ast.Name) else given
    if isinstance(value, ast.Constant) and type(value.value) in (int, str):
        return Lits((str(value.value),))
    return None


def loop_literals(module: Module, loop: ast.For | ast.AsyncFor) -> dict[str, Lits]:
    """The names a loop over literals binds: ``for city in CITIES`` (``city``: one of them),
    ``for key, url in FEEDS.items()`` over a dict literal (``key``: one of its keys, ``url``:
    one of its string values)."""
    lits = literal_strings(module, loop.iter)
    target = loop.target
    out: dict[str, Lits] = {}
    if lits and isinstance(target, ast.Tuple | ast.List) and target.elts:
        values = _dict_values(module, loop.iter) if len(target.elts) == 2 else None
        if values and isinstance(target.elts[1], ast.Name):
            out[target.elts[1].id] = Lits(values)
        target = target.elts[0]
    if lits and isinstance(target, ast.Name):
        out[target.id] = Lits(lits)
    return out


def _dict_values(module: Module, node: ast.expr) -> tuple[str, ...] | None:
    """The string values of ``D.items()`` where ``D`` is a dict literal (or names one)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    if node.func.attr != "items":
        return None
    held = node.func.value
    if isinstance(held, ast.Name):
        held = module.constants.get(held.id, held)
    return _strings(list(held.values)) if isinstance(held, ast.Dict) else None
