"""An estimate of pi by a quarter circle: its bounds and its mean, read from its words.

A name that says the function estimates pi (``estimate_pi``, ``monte_carlo_pi``,
``mcpi`` with a docstring or comment that speaks of pi, or a ``return pi``; or a name
that says it estimates, ``estimate``, in a file named for pi, ``estimate_pi.py``) and
code that scales a ratio by four (``4 * inside / total``: the area of a quarter circle)
-> ``bounds`` [0, 4], adopted whatever behaviour showed: the ratio of hits to throws
lies in [0, 1] whatever the program's inputs, so a value outside is the bug, never words
about something else (a needle-dropping estimate, unbounded, has no factor of four and
is left alone). A function of nothing, or of its count of throws alone, is also held to
average pi (``estimates``).
"""

from __future__ import annotations

import ast
import inspect
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from automock.properties._signature import function_tree
from automock.properties.infer import AppliedProperty, name_tokens
from automock.properties.observe import Observations

__all__ = ["estimated_pi"]

_ESTIMATING = frozenset({"estimate", "estimation", "approx", "approximate", "approximation"})
_ESTIMATING |= {"monte", "carlo", "montecarlo", "simulate", "simulation", "mc"}
_QUARTER_CIRCLE = re.compile(r"(?<![\w.])4(?:\.0*)?\s*\*|\*\s*4(?:\.0*)?(?![\w.])")


def estimated_pi(fn: Callable[..., Any], observed: Observations) -> list[AppliedProperty]:
    """``bounds`` [0, 4], and ``estimates`` pi for a function of at most its count of
    throws, for an estimate of pi (see the module); [] for anything else."""
    pi = _pi_bounds(fn, observed)
    if pi is None:
        return []
    out = [pi]
    if len(observed.parameters) <= 1:  # of nothing, or of its count of throws
        count = observed.parameters[0] if observed.parameters else None
        evidence = "name: an estimate of pi as 4 x (hits / throws) averages to pi"
        averages: dict[str, Any] = {"value": math.pi, "count": count}
        out.append(AppliedProperty("estimates", averages, "stated", evidence))
    return out


def _number(output: Any) -> bool:
    return isinstance(output, int | float) and not isinstance(output, bool)


def _says_pi(fn: Callable[..., Any]) -> bool:
    """Is ``fn`` named for pi: a word ``pi`` (``calc_pi``), or one ending in it (``mcpi``)
    when its docstring or the comment above it speaks of pi too, or does it return a
    variable named for pi (``montecarlo`` ending in ``return pi``)?"""
    tokens = name_tokens(getattr(fn, "__name__", ""))
    if "pi" in tokens or "pi" in _returned_words(fn):
        return True
    if set(tokens) & _ESTIMATING and "pi" in _module_words(fn):  # estimate_pi.py's `estimate`
        return True
    if not any(t.endswith("pi") for t in tokens):
        return False
    try:
        words = (inspect.getdoc(fn) or "") + (inspect.getcomments(inspect.unwrap(fn)) or "")
    except (OSError, TypeError):
        return False
    return bool(re.search(r"\bpi\b|\u03c0", words, re.IGNORECASE))


def _module_words(fn: Callable[..., Any]) -> list[str]:
    """The words of the name of the file ``fn`` is defined in (``estimate_pi.py`` -> estimate,
    pi)."""
    try:
        path = inspect.getsourcefile(inspect.unwrap(fn))
    except (OSError, TypeError):
        return []
    return name_tokens(Path(path).stem) if path else []


def _returned_words(fn: Callable[..., Any]) -> set[str]:
    """The words of the variables ``fn`` returns (``return pi_hat`` -> pi, hat)."""
    tree = function_tree(fn)
    if tree is None:
        return set()
    return {
        word
        for node in ast.walk(tree)
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Name)
        for word in name_tokens(node.value.id)
    }


def _pi_bounds(fn: Callable[..., Any], observed: Observations) -> AppliedProperty | None:
    """[0, 4] for an estimate of pi by a quarter circle's area (see the module docstring)."""
    if not _says_pi(fn) or not observed.accepted:
        return None
    if not all(_number(o.output) for o in observed.accepted):
        return None
    try:
        source = inspect.getsource(inspect.unwrap(fn))
    except (OSError, TypeError):
        return None
    if not _QUARTER_CIRCLE.search(source):
        return None
    evidence = "name: an estimate of pi as 4 x (hits / throws) lies within [0, 4]"
    return AppliedProperty("bounds", {"low": 0, "high": 4}, "stated", evidence)
