"""Does a Monte Carlo estimate average to what it estimates (``estimates``)?

An estimate of pi as 4 x (hits / throws) that draws one coordinate for both axes
still lies within ``[0, 4]`` on every call, but averages to ``4 / sqrt(2)``. Over
many seeded runs the mean of an unbiased estimate is the value estimated within
sampling error: :func:`mean_estimate` fails when the mean is off by more than a
relative ``tolerance`` (a throw counted one too many or too few on small counts
shifts it by less) and by more than sampling error at ``alpha`` (the normal
approximation: ``z**2`` is chi-square with one degree of freedom).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from automock.properties.distribution import (
    DistributionResult,
    Raised,
    chi_square_p_value,
    observe_runs,
    raised_result,
)

__all__ = ["mean_estimate"]


def mean_estimate(
    estimate: Callable[[], Any],
    value: float,
    *,
    runs: int = 300,
    seed: int = 0,
    alpha: float = 1e-3,
    tolerance: float = 0.02,
) -> DistributionResult:
    """Do ``runs`` seeded calls of ``estimate()`` average to ``value`` (see the module)?"""
    try:
        outcomes = observe_runs(estimate, runs, seed)
    except Raised as raised:
        return raised_result("estimates", 1, alpha, runs, raised)
    numbers = [float(v) for v in outcomes if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(numbers) != len(outcomes) or not all(math.isfinite(v) for v in numbers):
        bad = next(v for v in outcomes if not isinstance(v, int | float) or not math.isfinite(v))
        detail = f"an estimate came out {bad!r}, not a finite number"
        return DistributionResult("estimates", False, math.inf, 1, 0.0, alpha, runs, detail, bad)
    mean = sum(numbers) / runs
    variance = sum((v - mean) ** 2 for v in numbers) / max(1, runs - 1)
    error = math.sqrt(variance / runs) or 1e-12
    statistic = ((mean - value) / error) ** 2
    p_value = chi_square_p_value(statistic, 1)
    passed = p_value >= alpha or abs(mean - value) <= tolerance * abs(value)
    detail = (
        f"mean {mean:.4f} over {runs} seeded runs (standard error {error:.4f}); "
        f"{'consistent with' if passed else 'not'} {value:.4f} within "
        f"{tolerance:.0%} at alpha={alpha:g}"
    )
    cell = None if passed else {"mean": round(mean, 4), "expected": round(value, 4)}
    return DistributionResult("estimates", passed, statistic, 1, p_value, alpha, runs, detail, cell)
