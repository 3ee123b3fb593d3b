"""What an arithmetic or formatting operator says about the response value it meets.

``n + 1`` or ``total / n`` wants a number; ``"Temp: " + t`` and a chain that is text
already (``str(day["high"]) + "°" + day["unit"]``, ``f"{a}" + b``) want text;
``"%d comments" % item["count"]`` wants what its conversion formats (``%d`` an integer,
``%.1f`` a float, ``%s`` text), one conversion per value of a tuple on the right, and
``"%s at %s" % tuple(row)`` a row of as many items as conversions.
``"dragon" in item["model_id"]`` wants text of a field its name alone would make a number.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Any

from automock.drafting.literals import Ref
from automock.drafting.values import plausible

__all__ = ["binop_hints", "held_hint", "is_text"]

# one %-conversion: an optional mapping key, flags, width, precision and its type letter
_CONVERSION = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?([a-zA-Z%])")
_KIND = {
    **dict.fromkeys("diouxXc", "int"),
    **dict.fromkeys("eEfFgG", "float"),
    **dict.fromkeys("sra", "str"),
}
_TEXT_CALLS = frozenset(["str", "format", "join", "upper", "lower", "strip", "title", "repr"])


def is_text(node: ast.expr) -> bool:
    """Whether ``node`` is plainly a str: a literal, an f-string, ``str(x)``, a text
    method's result, or a ``+`` chain with one of those in it."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        return name in _TEXT_CALLS
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_text(node.left) or is_text(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
    return False


def _conversions(template: str) -> list[str | None]:
    kinds = [m.group(1) for m in _CONVERSION.finditer(template)]
    return [_KIND.get(kind) for kind in kinds if kind != "%"]


def binop_hints(
    node: ast.BinOp,
    evaluate: Callable[[ast.expr], Any],
    note: Callable[[Ref, str | None], None],
) -> None:
    """Note the hint each response value among ``node``'s operands gets from it."""
    left = node.left
    if (
        isinstance(node.op, ast.Mod)
        and isinstance(left, ast.Constant)
        and isinstance(left.value, str)
    ):
        values = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        kinds = _conversions(left.value)
        spread = isinstance(node.right, ast.Call) and ast.unparse(node.right.func) == "tuple"
        found = evaluate(node.right) if spread and len(kinds) > 1 else None
        if isinstance(found, Ref):  # ``"%s (%s / %s)" % tuple(row)``: one item a conversion
            note(found.child(f"count:{min(len(kinds), 24)}"), None)
            return
        for i, value in enumerate(values):
            found = evaluate(value)
            if isinstance(found, Ref):
                note(found, kinds[i] if i < len(kinds) else None)
        return
    sides = (evaluate(left), evaluate(node.right))
    for side, other in ((sides[0], node.right), (sides[1], left)):
        if isinstance(side, Ref):
            text = isinstance(node.op, ast.Add) and is_text(other)
            note(side, "str" if text else "number")


def held_hint(ref: Ref, item: ast.expr) -> str | None:
    """The hint a field ``ref`` gets from ``item in ref``: text when ``item`` is a string
    literal and the field's name alone would make it a number or a flag, else none (a
    field tested for a member may as well be a list or an object)."""
    last = ref.path[-1] if ref.path else ""
    if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
        return None
    return "str" if last.startswith("key:") and not isinstance(plausible(last[4:]), str) else None
