"""A roulette wheel read from the code: a pick by weight whatever the function is named.

``select_parent(population, fitness_values)`` names no wheel; its body is one
(``total = sum(fitness_values)``, ``pick = uniform(0, total)``, then a running sum
compared with the pick). A careful engineer reading it checks that each member is
picked in proportion to its fitness. :func:`spins_wheel` says whether the code of a
function does that with the parameter it takes the weights in: the weights totalled
(``sum``, ``accumulate``, ``cumsum``) beside a uniform draw, or handed to a weighted
draw (``choices(population, weights=fitness)``, ``numpy``'s ``choice(..., p=...)``).
A tournament or a pick of the fittest does neither, and is left to its own checks.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from automock.properties._signature import called_name, function_tree

__all__ = ["spins_wheel"]

_TOTALS = frozenset({"sum", "accumulate", "cumsum", "fsum"})
_UNIFORM_DRAWS = frozenset({"uniform", "random", "randint", "randrange", "rand"})
_WEIGHTED_DRAWS = frozenset({"choices", "choice"})


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def spins_wheel(fn: Callable[..., Any], weights: str) -> str | None:
    """How ``fn``'s code picks by the weights in its parameter ``weights`` (see the module),
    as evidence; None when it is not seen doing so."""
    tree = function_tree(fn)
    if tree is None:
        return None
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    for call in calls:
        name = called_name(call)
        if name in _WEIGHTED_DRAWS:
            handed = [k.value for k in call.keywords if k.arg in ("weights", "cum_weights", "p")]
            handed += call.args[1:2] if name == "choices" else []
            if any(_mentions(value, weights) for value in handed):
                return f"code: {weights} handed to {name}() as its weights"
    totalled = any(
        called_name(c) in _TOTALS and any(_mentions(a, weights) for a in c.args) for c in calls
    )
    drawn = any(called_name(c) in _UNIFORM_DRAWS for c in calls)
    if totalled and drawn:
        return f"code: a wheel, {weights} totalled and a number drawn up to the total"
    return None
