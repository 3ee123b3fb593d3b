"""The string a program looks for in a response field: ``if item["kind"] == "sentient":``.

A drafted ``"kind-alpha"`` never equals it, so the branch that reads on (and prints) is
never taken. The first drafted value of a key the code tests for equality with a string
literal in a condition (``if``, a conditional expression, a comprehension's filter) is
that literal; the later ones keep their drafted value, so a list has an item of each
kind. Literals that name a failure (``"error"``, ``"failed"``) are left alone: the code
looks for them to give up; so are tests whose branch calls its own function (a tree walk
would recurse for ever). A key kept by ``startswith``/``endswith`` holds a value with that
affix, and one that must hold a literal (``"USD" in t["pair"]``) the literal.
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
            _affixed(node, out)
            if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
                continue
            if isinstance(node.ops[0], ast.In) and isinstance(node.left, ast.Constant):
                key, held = _key_of(node.comparators[0]), node.left.value
                if key is not None and isinstance(held, str) and _wanted(held):
                    out.setdefault(key, held)  # ``"USD" in t["pair"]``: the literal itself
            if not isinstance(node.ops[0], ast.Eq):
                continue
            sides = (node.left, node.comparators[0])
            for side, other in (sides, sides[::-1]):
                key = _key_of(side)
                literal = other.value if isinstance(other, ast.Constant) else None
                if key is not None and isinstance(literal, str) and _wanted(literal):
                    out.setdefault(key, literal)
    return out


def _wanted(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip()) and not _FAILURE.search(value)


def _affixed(node: ast.AST, out: dict[str, str]) -> None:
    """``t["pair"].startswith("BTC")`` / ``.endswith(".png")``: a value with that affix
    (an absolute URL for ``startswith("http")``)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
        return
    arg, how = node.args[0], node.func.attr
    if isinstance(arg, ast.Tuple) and arg.elts:
        arg = arg.elts[0]
    key = _key_of(node.func.value)
    if how not in ("startswith", "endswith") or key is None or not isinstance(arg, ast.Constant):
        return
    literal = arg.value
    if not _wanted(literal) or not isinstance(literal, str):
        return
    if how == "endswith":
        out.setdefault(key, f"{key.lower()}{literal}")
    elif "https://".startswith(literal.lower()) or "http://".startswith(literal.lower()):
        scheme = "https://" if "https://".startswith(literal.lower()) else "http://"
        out.setdefault(key, f"{scheme}example.com/{key.lower()}/1")
    else:
        out.setdefault(key, f"{literal}{key.lower()}")
