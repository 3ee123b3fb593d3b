"""How an amplified run compares a candidate's output with the reference's.

Stdlib only and self-contained: :mod:`automock.properties.harness` copies this
module's source into the trusted test text that runs in a pair's test
process (never in the candidate's), so the comparison a refinement loop is
told about is the one that ran.

- :func:`same_output`: equality, except that numbers compare with a
  tolerance: ``math.isclose(expected, actual, rel_tol=REL_TOL,
  abs_tol=ABS_TOL)`` (1e-6 relative, 1e-9 absolute), ``int`` and ``float``
  compare by value (``2 == 2.0``) but ``bool`` is not a number here, and NaN
  equals NaN. Lists and tuples compare item by item (order matters: the
  reference's order is the answer), dicts key by key, sets as sets. A list
  is not a tuple.
- :func:`fingerprint`: one text per output for behavioural clustering
  (:mod:`automock.pipeline.amplify`): floats rounded to 9 significant digits,
  sets and dict items sorted, so equal behaviours give equal texts.
- :func:`case_matches`: a given test's own assertion (``==``, ``is``,
  ``approx``, ``truthy``, through a builtin wrapper), as
  :meth:`automock.properties.testcases.TestCase.matches` judges it.
"""

from __future__ import annotations

import builtins
import math
from typing import Any

REL_TOL = 1e-6
ABS_TOL = 1e-9


def _number(value: Any) -> bool:
    return type(value) in (int, float)


def same_output(expected: Any, actual: Any) -> bool:
    """Whether ``actual`` is ``expected``, numbers within the tolerance (see the module)."""
    if _number(expected) and _number(actual):
        if type(expected) is float or type(actual) is float:
            if math.isnan(expected) or math.isnan(actual):
                return math.isnan(expected) and math.isnan(actual)
            return math.isclose(expected, actual, rel_tol=REL_TOL, abs_tol=ABS_TOL)
        return bool(expected == actual)
    if type(expected) is not type(actual):
        return False
    if type(expected) in (list, tuple):
        return len(expected) == len(actual) and all(
            same_output(e, a) for e, a in zip(expected, actual, strict=True)
        )
    if type(expected) is dict:
        return expected.keys() == actual.keys() and all(
            same_output(v, actual[k]) for k, v in expected.items()
        )
    if type(expected) is complex:
        return same_output(expected.real, actual.real) and same_output(expected.imag, actual.imag)
    return bool(expected == actual)


def fingerprint(value: Any) -> str:
    """A text equal for outputs that behave the same (floats to 9 significant digits)."""
    kind = type(value)
    if kind is float:
        return "nan" if math.isnan(value) else format(value, ".9g")
    if kind is int:
        return repr(value)
    if kind in (list, tuple):
        inner = ",".join(fingerprint(v) for v in value)
        return f"[{inner}]" if kind is list else f"({inner})"
    if kind in (set, frozenset):
        return "{" + ",".join(sorted(fingerprint(v) for v in value)) + "}"
    if kind is dict:
        items = sorted(f"{fingerprint(k)}:{fingerprint(v)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    return f"{kind.__name__}:{value!r}"


def case_matches(
    output: Any,
    expected: Any,
    compare: str,
    tolerance: float = 0.0,
    wrapper: str = "",
    wrapper_args: tuple[Any, ...] = (),
) -> bool:
    """Whether ``output`` passes one given test's assertion (always True without one)."""
    if not compare:
        return True
    try:
        if wrapper:
            output = getattr(builtins, wrapper)(output, *wrapper_args)
        if compare == "approx":
            return bool(abs(output - expected) < tolerance)
        if compare == "truthy":
            return bool(output) == bool(expected)
        if compare == "is":
            return output is expected
        return bool(output == expected)
    except Exception:  # an output the assertion cannot even compare fails it
        return False


def size_of(value: Any) -> int:
    """How big an input is, for "smallest counterexample": items and magnitudes, summed."""
    kind = type(value)
    if kind in (list, tuple, set, frozenset):
        return 1 + sum(size_of(v) for v in value)
    if kind is dict:
        return 1 + sum(size_of(k) + size_of(v) for k, v in value.items())
    if kind in (str, bytes):
        return 1 + len(value)
    if kind is int:
        return 1 + int(min(abs(value), 10**9).bit_length())
    if kind is float:
        return 2 + (0 if math.isnan(value) or math.isinf(value) else min(abs(value), 1e9) > 1)
    return 1
