"""Is the output an estimate of a constant? Inferred from how it converges (``estimates``).

A Monte Carlo estimator returns a number that changes with the seed, and whose spread
across seeds shrinks as its count of trials grows (as ``1 / sqrt(count)``), towards one
value, the same under every seed. :func:`converging_estimate` calls the function with a
small and a large count under many seeds and, when the output converges so, names what it
converges to:

- a well-known constant (pi, e, the square root of 2 or 3, the golden ratio, ln 2, 1/e,
  Euler's gamma) that the large-count mean resolves (within four standard errors and 2%)
  -> ``estimates`` that constant (behaviour);
- else the one such constant within a factor of 2.5 that the function's own words name (its name, its docstring, its
  module's comments, strings and file name: "Buffon's needle pi approximation", "eulers
  number") -> ``estimates`` that constant (words): a converging output far from the constant
  its code says it estimates is a biased estimator.

Calls stay cheap: a function whose small-count call takes more than a twentieth of a
second is not scaled up.
"""

from __future__ import annotations

import inspect
import io
import math
import re
import time
import tokenize
from collections.abc import Callable, Sequence
from typing import Any

from automock.errors import AutomockError
from automock.properties._signature import module_source, signature_of
from automock.properties.bounded import bounded
from automock.properties.infer import AppliedProperty, name_tokens
from automock.properties.observe import Observations
from automock.properties.runner import materialized

__all__ = ["CONSTANTS", "converging_estimate"]

CONSTANTS: tuple[tuple[str, float, re.Pattern[str]], ...] = (
    ("pi / 4", math.pi / 4, re.compile(r"quarter\s+circle", re.IGNORECASE)),
    ("pi", math.pi, re.compile(r"(?<![a-z])pi(?![a-z])|\u03c0", re.IGNORECASE)),
    (
        "e",
        math.e,
        re.compile(
            r"\beuler'?s?\s+(?:number|constant)|\beulers?\b(?![-\s]*mascheroni)|\bnapier",
            re.IGNORECASE,
        ),
    ),
    ("sqrt(2)", math.sqrt(2), re.compile(r"\bsqrt\s*\(?\s*2\b|square root of 2", re.IGNORECASE)),
    ("sqrt(3)", math.sqrt(3), re.compile(r"\bsqrt\s*\(?\s*3\b|square root of 3", re.IGNORECASE)),
    ("golden ratio", (1 + math.sqrt(5)) / 2, re.compile(r"golden\s+ratio", re.IGNORECASE)),
    ("ln(2)", math.log(2), re.compile(r"\bln\s*\(?\s*2\b|\blog\s*\(\s*2\s*\)", re.IGNORECASE)),
    ("1/e", 1 / math.e, re.compile(r"1\s*/\s*e\b", re.IGNORECASE)),
    ("Euler's gamma", 0.5772156649015329, re.compile(r"mascheroni", re.IGNORECASE)),
)
SMALL, LARGE, SEEDS = 100, 1600, 24
_CHEAP_SECONDS = 0.05
# a converging output this close to the constant its words name estimates it (badly, if
# off); one further off (a fraction of hits, a coin's share) estimates something else
_NEAR = 2.5


def _count_parameters(fn: Callable[..., Any], observed: Observations) -> list[str]:
    """Parameters that may be the count of trials: required ones seen taking ints only, and
    optional ones whose default is an int; every other parameter must have a default."""
    signature = signature_of(fn)
    if signature is None:
        return []
    out = []
    for p in signature.parameters.values():
        seen = (
            [o.args[observed.parameters.index(p.name)] for o in observed.calls]
            if (p.name in observed.parameters)
            else []
        )
        if p.default is inspect.Parameter.empty:
            if not seen or not all(type(v) is int for v in seen):
                return []  # a required parameter other than a count: no call of the count alone
            out.append(p.name)
        elif type(p.default) is int:
            out.append(p.name)
    return out


def _runs(fn: Callable[..., Any], count: str, size: int) -> list[float] | None:
    values = []
    for seed in range(SEEDS):
        started = time.process_time()
        try:
            value = bounded(lambda: materialized(fn(**{count: size})), seed=seed, seconds=2.0)
        except (AutomockError, Exception):
            return None
        if size == SMALL and time.process_time() - started > _CHEAP_SECONDS:
            return None
        if not isinstance(value, int | float) or isinstance(value, bool):
            return None
        if not math.isfinite(value):
            return None
        values.append(float(value))
    return values


def _spread(values: Sequence[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def _words(fn: Callable[..., Any]) -> str:
    """The function's name, docstring, and its module's comments, strings and file name."""
    parts = [" ".join(name_tokens(getattr(fn, "__name__", ""))), inspect.getdoc(fn) or ""]
    filename, source = module_source(fn)
    parts.append(filename)
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.COMMENT, tokenize.STRING):
                parts.append(token.string)
    except (tokenize.TokenError, SyntaxError):
        pass
    return " ".join(parts).replace("_", " ").replace("-", " ")


def converging_estimate(fn: Callable[..., Any], observed: Observations) -> AppliedProperty | None:
    """``estimates`` of the constant ``fn``'s output converges to (see the module)."""
    outputs = [o.output for o in observed.accepted if o.output is not None]
    numbers = [v for v in outputs if isinstance(v, int | float) and not isinstance(v, bool)]
    floats = [v for v in numbers if isinstance(v, float)]
    if not outputs or len(numbers) < len(outputs) or len(floats) * 2 < len(outputs):
        return None  # a number each call, mostly a fraction (0 or 4 from one throw aside)
    for count in _count_parameters(fn, observed)[:2]:
        small = _runs(fn, count, SMALL)
        large = _runs(fn, count, LARGE) if small else None
        if not small or not large:
            continue
        (_, wide), (mean, narrow) = _spread(small), _spread(large)
        if not 0 < narrow <= wide / 2:  # fixed, or not narrowing with the count: no estimate
            continue
        error = narrow / math.sqrt(SEEDS)
        near = [
            (name, value)
            for name, value, _ in CONSTANTS
            if abs(mean - value) <= min(4 * error + 1e-9, 0.02 * value) or abs(mean - value) <= 1e-3
        ]
        seen = f"spread {wide:.3g} at {count}={SMALL}, {narrow:.3g} at {LARGE}; mean {mean:.4f}"
        if len(near) == 1:
            name, value = near[0]
            evidence = f"converges to {name} as {count} grows ({seen})"
        else:
            text = _words(fn)
            named = [
                (n, v)
                for n, v, pattern in CONSTANTS
                if pattern.search(text) and v / _NEAR <= mean <= v * _NEAR
            ]
            if len(named) != 1:
                continue
            name, value = named[0]
            evidence = f"converges as {count} grows ({seen}); its words name {name}"
        options: dict[str, Any] = {"value": value, "count": count}
        return AppliedProperty("estimates", options, "inferred", evidence)
    return None
