"""A count of hits over its number of trials: a fraction, whatever behaviour showed.

``heads / num_flips`` where ``heads`` starts at 0 and goes up by one at most once per
pass of a loop over ``range(num_flips)`` lies within ``[0, 1]`` (``4 * hits / throws``
within ``[0, 4]``) by what the code says it computes; a loop that runs once too often
(``range(num_flips + 1)``) returns fractions above 1 on small counts, and bounds learned
from that same behaviour would take them in. :func:`counted_fraction` reads that shape
from the source and proposes ``bounds [0, c]``: one ``return [c *] count / trials``
(``trials`` a parameter, ``c`` a positive number), ``count = 0`` once outside any loop,
and one ``count += 1`` inside a single loop (not nested) over ``range(...)`` of
``trials``. Anything else is left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from automock.properties._signature import function_tree
from automock.properties.infer import AppliedProperty
from automock.properties.observe import Observations

__all__ = ["counted_fraction"]

_LOOPS = (ast.For, ast.While, ast.AsyncFor)


def _positive(node: ast.expr) -> float | None:
    value = node.value if isinstance(node, ast.Constant) else None
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


def _scaled(node: ast.expr) -> tuple[float, str] | None:
    """``(c, name)`` for ``name``, ``c * name`` or ``name * c``."""
    if isinstance(node, ast.Name):
        return 1.0, node.id
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for factor, rest in ((node.left, node.right), (node.right, node.left)):
            scale = _positive(factor)
            if scale is not None and isinstance(rest, ast.Name):
                return scale, rest.id
    return None


def _scaled_ratio(node: ast.expr) -> tuple[float, str, str] | None:
    """``(c, count, trials)`` for ``count / trials`` times a positive constant ``c`` (on
    either side, inside or outside the division), names only; else None."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        top = _scaled(node.left)
        if top is None or not isinstance(node.right, ast.Name):
            return None
        return top[0], top[1], node.right.id
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for factor, rest in ((node.left, node.right), (node.right, node.left)):
            scale, inner = _positive(factor), _scaled_ratio(rest)
            if scale is not None and inner is not None and inner[0] == 1.0:
                return scale, inner[1], inner[2]
    return None


def _loops_over(loop: ast.AST, trials: str) -> bool:
    if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call):
        return False
    func = loop.iter.func
    if not (isinstance(func, ast.Name) and func.id == "range"):
        return False
    return any(isinstance(n, ast.Name) and n.id == trials for n in ast.walk(loop.iter))


def _counts_once(body: ast.FunctionDef, count: str, trials: str) -> bool:
    """Is ``count`` set to 0 once outside loops and raised by one once, in one loop over
    ``range(trials)``, and assigned nowhere else?"""
    starts, steps = 0, 0

    def visit(node: ast.AST, loops: tuple[ast.AST, ...]) -> bool:
        nonlocal starts, steps
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == count for t in targets):
                value = node.value
                zero = isinstance(value, ast.Constant) and value.value == 0
                one = isinstance(value, ast.Constant) and value.value == 1
                if isinstance(node, ast.Assign) and zero and not loops:
                    starts += 1
                elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and one:
                    if len(loops) != 1 or not _loops_over(loops[0], trials):
                        return False
                    steps += 1
                else:
                    return False
        inner = (*loops, node) if isinstance(node, _LOOPS) else loops
        return all(visit(child, inner) for child in ast.iter_child_nodes(node))

    ok = all(visit(statement, ()) for statement in body.body)
    return ok and starts == 1 and steps == 1


def counted_fraction(fn: Callable[..., Any], observed: Observations) -> AppliedProperty | None:
    """``bounds [0, c]`` for ``[c *] count / trials`` (see the module), else None."""
    if not observed.accepted or any(type(o.output) not in (int, float) for o in observed.accepted):
        return None
    tree = function_tree(fn)
    if tree is None:
        return None
    body = tree.body[0] if tree.body else None
    if not isinstance(body, ast.FunctionDef):
        return None
    returns = [n for n in ast.walk(body) if isinstance(n, ast.Return)]
    if len(returns) != 1 or returns[0].value is None:
        return None
    found = _scaled_ratio(returns[0].value)
    params = {a.arg for a in body.args.args}
    if found is None or found[2] not in params or found[1] in params:
        return None
    scale, count, trials = found
    if not _counts_once(body, count, trials):
        return None
    high: float | int = int(scale) if scale.is_integer() else scale
    evidence = (
        f"code: {count} goes up by one at most once per pass over range({trials}): "
        f"{'' if high == 1 else f'{high:g} x '}{count} / {trials} lies within [0, {high:g}]"
    )
    return AppliedProperty("bounds", {"low": 0, "high": high}, "stated", evidence)
