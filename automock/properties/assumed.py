"""What a function's docstring (or its code) assumes of a numeric parameter: an input that
breaks it is outside the function's domain, like one it refuses with a ``raise``.

``"Assumes numFlips a positive int"``, ``"n: a non-negative integer"``, ``"k must be at
least 1"``, ``"size (int > 0)"``: a person calling the function would not pass
``flip(-1)``, so the checker does not hold it to its properties there. Only a parameter
named in the sentence is bound, and only by a sign (positive, non-negative, at least 0 or
1): a docstring's looser words (``"a list of numbers"``) assume nothing here.

The code says as much of a count it reads only as ``range()``'s end (``range(n)``: a
negative count loops as 0 does), and of a count a ``while n:`` loop counts down
(``n -= 1``): at least 0, since a negative one never reaches 0 and the call never returns.
And of a count of trials: a parameter the function loops over (``range(n)``, its only
argument) and divides by (``heads / n``) is a number of trials, at least 1. Called with
``-1`` it loops zero times and returns ``-0.0`` shares, an answer to no question.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeGuard

from automock.properties._signature import function_tree, parameter_names

__all__ = ["assumed_lows", "broken_assumption"]

# after the parameter's name, within one clause: the lowest value the words allow
_LOWS = (
    (re.compile(r"\bnon-?negative\b|\bnot negative\b|>=\s*0\b|\bat least (?:0|zero)\b"), 0),
    (
        re.compile(
            r"\bpositive\b|>\s*0\b|>=\s*1\b|\bat least (?:1|one)\b|\bgreater than (?:0|zero)\b"
        ),
        1,
    ),
)
_CLAUSE = re.compile(r"\s*[:(-]?[^.;:\n]*")  # ``n: a positive int``, ``n (int > 0)``


def _lows(doc: str, names: tuple[str, ...]) -> dict[str, int]:
    found: dict[str, int] = {}
    for name in names:
        for match in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", doc):
            clause = _CLAUSE.match(doc, match.end())
            text = (clause.group(0) if clause else "")[:60].lower()
            if re.search(r"\bnegative\b", text) and not re.search(
                r"non-?negative|not negative", text
            ):
                continue  # "n may be negative": no assumption
            for pattern, low in _LOWS:
                if pattern.search(text):
                    found[name] = max(found.get(name, low), low)
                    break
    return found


@functools.lru_cache(maxsize=256)
def _assumed(fn: Callable[..., Any]) -> tuple[tuple[str, int | None], ...]:
    """Each parameter of ``fn`` in order, with the lowest value its docstring allows (None:
    no assumption); empty when the docstring assumes nothing. Read once per function: the
    checker asks on every call it makes."""
    target = inspect.unwrap(fn)
    doc = inspect.getdoc(target) or ""
    names = parameter_names(target)
    if not names:
        return ()
    lows = _range_counts(target, names) | _countdowns(target, names)
    lows |= _trial_counts(target, names)
    lows |= _lows(doc, names) if doc else {}
    return tuple((name, lows.get(name)) for name in names) if lows else ()


def _trial_counts(fn: Callable[..., Any], names: tuple[str, ...]) -> dict[str, int]:
    """Each parameter ``fn`` both loops over (``range(p)``) and divides by: at least 1."""
    tree = function_tree(fn)
    if tree is None:
        return {}
    looped: set[str] = set()
    divided: set[str] = set()
    for node in ast.walk(tree):
        if _calls_range(node) and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
            looped.add(node.args[0].id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div | ast.FloorDiv):
            divided |= {node.right.id} if isinstance(node.right, ast.Name) else set()
    return {name: 1 for name in names if name in looped and name in divided}


def _range_counts(fn: Callable[..., Any], names: tuple[str, ...]) -> dict[str, int]:
    """Each parameter ``fn`` reads only as ``range()``'s end (``range(n)``, ``range(1, n + 1)``)
    or a slice's bound beside one (``picked[:k]``): at least 0. A negative one loops as 0
    does, an input no caller means."""
    tree = function_tree(fn)
    if tree is None:
        return {}
    ends: set[int] = set()  # the Name nodes inside a range() call's end
    cuts: set[int] = set()  # ... and inside a slice's bounds (`picked[:k]`)
    for node in ast.walk(tree):
        if _calls_range(node):
            end = node.args[0] if len(node.args) == 1 else node.args[1]
            ends |= {id(n) for n in ast.walk(end) if isinstance(n, ast.Name)}
        if isinstance(node, ast.Slice):
            cuts |= {id(n) for n in ast.walk(node) if isinstance(n, ast.Name)}
    reads: dict[str, list[int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            reads.setdefault(node.id, []).append(id(node))
    return {
        name: 0
        for name, seen in reads.items()
        if all(r in ends or r in cuts for r in seen) and any(r in ends for r in seen)
    }


def _calls_range(node: ast.AST) -> TypeGuard[ast.Call]:
    """Is ``node`` a call of ``range`` with arguments?"""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "range"
        and bool(node.args)
    )


def _countdowns(fn: Callable[..., Any], names: tuple[str, ...]) -> dict[str, int]:
    """Each parameter a ``while p:`` (or ``while p != 0:``) loop counts down by one: at least
    0. A negative count never reaches 0 there, so the call never returns."""
    tree = function_tree(fn)
    loops = [n for n in ast.walk(tree) if isinstance(n, ast.While)] if tree is not None else []
    found: dict[str, int] = {}
    for loop in loops:
        name = _counted(loop.test)
        if name not in names:
            continue
        for node in ast.walk(loop):
            if (
                isinstance(node, ast.AugAssign)
                and isinstance(node.op, ast.Sub)
                and isinstance(node.target, ast.Name)
                and node.target.id == name
            ):
                found[name] = 0
    return found


def _counted(test: ast.expr) -> str | None:
    """The name a loop's test reads as a count: ``while n:`` or ``while n != 0:``."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq):
        zero = test.comparators[0]
        test = test.left if isinstance(zero, ast.Constant) and zero.value == 0 else test
    return test.id if isinstance(test, ast.Name) else None


def assumed_lows(fn: Callable[..., Any]) -> dict[str, int]:
    """Each parameter the docstring bounds below, and its lowest allowed value."""
    return {name: low for name, low in _assumed(fn) if low is not None}


def broken_assumption(fn: Callable[..., Any], args: Sequence[Any]) -> str | None:
    """What the docstring assumes that ``args`` (positional) break, or None."""
    for (name, low), value in zip(_assumed(fn), args, strict=False):
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if low is not None and number and value < low:
            return f"its docstring assumes {name} >= {low}"
    return None
