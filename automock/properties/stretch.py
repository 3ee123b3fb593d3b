"""Where a stretch of a list ends: on its last item, or one past it.

``randomized_select(A, p, r, i)`` (CLRS) reads ``A[p..r]``, ``r`` the last index;
``quick_select_random(arr, lo, hi, k)`` reads ``arr[lo:hi]``, ``hi`` one past the last
(``randint(lo, hi - 1)`` draws its pivot). Fitted to ``0`` and ``len - 1``, the second
never sees the last item, and a correct selection looks wrong. :func:`past_end` reads the
function's own code for the high end's use: ``hi - 1``, ``range(lo, hi)``,
``randrange(lo, hi)`` or a slice ``[lo:hi]`` say one past the end, unless ``hi + 1``, an
item ``arr[hi]`` or ``randint(lo, hi)`` say the last item too; with no word either way
the end is the last item, as before.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from automock.properties._signature import called_name, function_tree, parameter_names
from automock.properties.together import index_pair

__all__ = ["past_end"]


def _is(node: ast.AST | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _reads(tree: ast.AST, name: str) -> tuple[bool, bool]:
    """(one past the end, the last item): how the code uses the high end ``name``."""
    past = last = False
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and _is(node.left, name):
            one = isinstance(node.right, ast.Constant) and node.right.value == 1
            past |= one and isinstance(node.op, ast.Sub)
            last |= one and isinstance(node.op, ast.Add)
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and _is(node.args[1], name):
            past |= called_name(node) in ("range", "randrange")
            last |= called_name(node) == "randint"
        elif isinstance(node, ast.Slice) and _is(node.upper, name):
            past = True
        elif isinstance(node, ast.Subscript) and _is(node.slice, name):
            last = True
    return past, last


def past_end(fn: Callable[..., Any]) -> bool:
    """Does ``fn``'s stretch end one past its last item (see the module)?"""
    names = parameter_names(fn)
    ends = index_pair(names, [0])
    tree = function_tree(fn) if ends is not None else None
    if ends is None or tree is None:
        return False
    past, last = _reads(tree, names[ends[2]])
    return past and not last
