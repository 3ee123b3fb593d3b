"""The string a program looks for in a response field: ``if item["kind"] == "sentient":``.

A drafted ``"kind-alpha"`` never equals it, so the branch that reads on (and prints) is
never taken. The first drafted value of a key the code tests for equality with a string
literal in a condition (``if``, a conditional expression, a comprehension's filter) is
that literal; the later ones keep their drafted value, so a list has an item of each
kind. Literals that name a failure (``"error"``, ``"failed"``) are left alone: the code
looks for them to give up; so are tests whose branch calls its own function (a tree walk
would recurse for ever).
"""

from __future__ import annotations

import ast
import re

from automock.drafting._source import Module

__all__ = ["wanted_values"]

_FAILURE = re.compile(
    r"(?i)(error|fail|invalid|denied|forbidden|unauthori[sz]ed|not[ _-]?found|missing|fault)"
    r"|^[45]\d\d$|^(n/?a|none|null|unknown|empty)$"  # an HTTP error code, no value at all
)


def _key_of(node: ast.expr) -> str | None:
    """``x["kind"]`` / ``x.get("kind")``: the literal key read."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        key = node.slice.value
        return key if isinstance(key, str) else None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value
    return None


def _recurses(module: Module, node: ast.AST) -> bool:
    """Whether ``node`` calls the function it sits in (a tree walk: ``if item["type"] ==
    "dir": walk(item["url"])``), which a value that always matches would never end."""
    func = module.enclosing_function(node)
    if func is None:
        return False
    return any(
        isinstance(c, ast.Call)
        and func.name in (getattr(c.func, "id", None), getattr(c.func, "attr", None))
        for c in ast.walk(node)
    )


def _tests(module: Module) -> list[ast.expr]:
    found: list[ast.expr] = []
    for node in ast.walk(module.tree):
        if isinstance(node, ast.If | ast.IfExp) and not _recurses(module, node):
            found.append(node.test)
        elif isinstance(node, ast.comprehension):
            found.extend(node.ifs)
    return found


def wanted_values(module: Module) -> dict[str, str]:
    """Key name -> the string literal the code's conditions test it equal to (the first)."""
    out: dict[str, str] = {}
    for test in _tests(module):
        for node in ast.walk(test):
            if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
                continue
            if not isinstance(node.ops[0], ast.Eq):
                continue
            sides = (node.left, node.comparators[0])
            for side, other in (sides, sides[::-1]):
                key = _key_of(side)
                if (
                    key is not None
                    and isinstance(other, ast.Constant)
                    and isinstance(other.value, str)
                    and other.value
                    and not _FAILURE.search(other.value)
                ):
                    out.setdefault(key, other.value)
    return out
