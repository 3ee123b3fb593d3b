"""Fixed bounds of a function's numeric outputs, from the extremes seen.

Daikon's trap: the lowest and highest values seen are not the function's bounds unless
enough of the calls reached them. :func:`fixed_bounds` says which sides count
(:mod:`automock.properties.relations` proposes ``bounds`` with them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from automock.properties.observe import Observation

__all__ = ["fixed_bounds"]


def fixed_bounds(
    values: list[tuple[Observation, list[float] | None]], low: float, high: float
) -> dict[str, Any]:
    """The fixed bounds seen: a side is a bound only if several inputs reached it (a die's 1
    and 6 under many side counts; a function of no input: several calls); a lowest value
    one input gave is no bound (an estimate that came out 2.4 on 5 points), though never
    negative is (low 0); a highest value one input gave is none. A function of no input
    has one input only: its extremes are bounds when its values are few and each was seen
    often (a die's faces over 60 calls), not the lowest of many estimates (2.84 of an
    estimate of pi over 100 points, beaten by 2.76 on a later run). Under many inputs too a
    side reached needs the values saturated so, or far more calls at it than at a usual
    value (a clamp's end): not the 47 of draws from 1 to 49 seen a few times each."""
    inputs = len({repr(o.args) for o, _ in values})
    # one call per input and seed: the same input under the same seed draws the same values
    # again (a call's seed comes from its input), and counting them twice fakes saturation
    calls = {(repr(o.args), o.seed): v for o, v in values if v}
    seen = [x for v in calls.values() if v for x in v]
    # few values, each seen often (a die's faces), and none seen only once: by Good-Turing
    # the values not seen yet weigh about as much as those seen once (the 6 and 7 of the
    # best three of four dice, whose rarer 3, 4 and 5 a later call shows)
    tally = Counter(seen)
    counts = tally.values()
    saturated = len(counts) * 4 <= len(seen) and 1 not in counts
    usual = sorted(counts)[len(counts) // 2]  # the median value's count

    def reached(side: float, pick: Callable[[list[float]], float]) -> bool:
        hits = [repr(o.args) for o, v in values if v and pick(v) == side]
        if inputs == 1:
            return len(hits) > 1 and saturated
        # several inputs reached it, and the values are few and each seen often, or the side
        # holds far more than its share (a clamp's end): the highest of 49 lottery numbers
        # seen a few times each is no bound, however many inputs reached it
        heavy = tally[side] >= 2 * usual and tally[side] > 2
        return len(set(hits)) > 1 and (saturated or heavy)

    options: dict[str, Any] = {}
    if reached(low, min):
        options["low"] = low
    elif low >= 0:
        options["low"] = 0
    if reached(high, max):
        options["high"] = high
    return _bytes(seen, low, high) or options


def _bytes(seen: list[float], low: float, high: float) -> dict[str, Any]:
    """Integers spanning most of 0..255 (an RGB channel, a byte) are held to [0, 255]; one
    past it (256) is the byte's off-by-one, not a wider range."""
    integral = bool(seen) and all(float(x).is_integer() for x in seen)
    return (
        {"low": 0, "high": 255}
        if integral and low >= 0 and high <= 256 and high - low >= 200
        else {}
    )
