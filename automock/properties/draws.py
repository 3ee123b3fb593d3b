"""Fairness of draws: a sample of ``k`` and a weighted choice, over many seeded runs.

A sampler that keeps its ``k`` elements without replacement every time can still favour
some (a reservoir whose replacement index is one short keeps the ``k``-th element too
often); a fitness-proportionate pick can still tilt its wheel (a ``- 1`` on every
weight). Like :mod:`~automock.properties.distribution` these run the function on a
fixed input under derived seeds and decide by chi-square:

* :func:`sample_uniformity`: each element of ``range(n)`` drawn in ``k / n`` of the runs;
* :func:`weighted_fairness`: each element of ``range(n)`` chosen with probability
  proportional to its weight (``1..n``), or to its inverse (a wheel that favours the
  smallest cost is as fair).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from automock.errors import InputError
from automock.properties.distribution import (
    DistributionResult,
    Raised,
    chi_square_p_value,
    chi_square_statistic,
    observe_runs,
    raised_result,
    verdict,
)

__all__ = ["sample_uniformity", "weighted_fairness"]


def _draws(outcome: object, n: int, k: int) -> bool:
    """Is ``outcome`` ``k`` distinct elements of ``range(n)`` (plain ints)? Never raises."""
    if not isinstance(outcome, (list, tuple)) or len(outcome) != k:
        return False
    if any(type(element) is not int for element in outcome):
        return False
    return len(set(outcome)) == k and all(0 <= element < n for element in outcome)


def sample_uniformity(
    draw: Callable[[list[int], int], Any],
    *,
    n: int = 6,
    k: int = 3,
    runs: int = 2000,
    seed: int = 0,
    alpha: float = 1e-3,
) -> DistributionResult:
    """Is ``draw`` (``k`` distinct elements of the list it is given) fair to every element?

    ``draw`` is called on ``list(range(n))`` and ``k`` once per run; each element
    should be drawn in ``k / n`` of the runs. The counts of a fixed-size draw without
    replacement vary less than a multinomial's (``p (1 - p) n / (n - 1)`` per run,
    ``p = k / n``), so the statistic divides by that variance and is chi-square with
    ``n - 1`` degrees of freedom. A run that does not return ``k`` distinct elements
    of the list fails the check outright.
    """
    if not 0 < k < n:
        raise InputError(f"a sample's fairness needs 0 < k < n, got k={k}, n={n}")
    dof = n - 1
    try:
        outcomes = observe_runs(lambda: draw(list(range(n)), k), runs, seed)
    except Raised as raised:
        return raised_result("uniform", dof, alpha, runs, raised)
    counts = [0] * n
    for outcome in outcomes:
        if not _draws(outcome, n, k):
            detail = f"draw returned {outcome!r}, not {k} distinct elements of {list(range(n))!r}"
            return DistributionResult(
                "uniform", False, math.inf, dof, 0.0, alpha, runs, detail, outcome
            )
        for element in outcome:
            counts[element] += 1
    p = k / n
    expected = runs * p
    variance = runs * p * (1 - p) * n / (n - 1)
    statistic = sum((c - expected) ** 2 for c in counts) / variance
    worst = max(range(n), key=lambda e: abs(counts[e] - expected))
    cell = {"element": worst, "drawn": counts[worst], "expected": expected}
    return verdict("uniform", statistic, dof, alpha, runs, cell)


def weighted_fairness(
    choose: Callable[[list[int], list[float]], Any],
    *,
    n: int = 5,
    runs: int = 2000,
    seed: int = 0,
    alpha: float = 1e-3,
    probabilities: bool = False,
) -> DistributionResult:
    """Does ``choose`` (one element of a list, given a weight for each) pick by weight?

    ``choose`` is called on ``list(range(n))`` with weights ``1..n`` once per run (divided
    by their sum with ``probabilities``: weights its parameter calls probabilities). The
    counts are tested against picks proportional to the weights and, separately, to
    their inverses (a wheel built for a cost to minimise); the check passes when either
    fits at ``alpha / 2``. An outcome that is not an element fails outright.
    """
    if n < 2:
        raise InputError(f"n must be at least 2 to test a weighted choice, got {n}")
    weights = [float(w) for w in range(1, n + 1)]
    if probabilities:
        weights = [w / sum(weights) for w in weights]
    try:
        outcomes = observe_runs(lambda: choose(list(range(n)), list(weights)), runs, seed)
    except Raised as raised:
        return raised_result("proportional", n - 1, alpha, runs, raised)
    counts = [0] * n
    for outcome in outcomes:
        if type(outcome) is not int or not 0 <= outcome < n:
            detail = f"choice returned {outcome!r}, not an element of {list(range(n))!r}"
            return DistributionResult(
                "proportional", False, math.inf, n - 1, 0.0, alpha, runs, detail, outcome
            )
        counts[outcome] += 1
    fits = []
    for shares in (weights, [1 / w for w in weights]):
        expected = [runs * w / sum(shares) for w in shares]
        statistic = chi_square_statistic([float(c) for c in counts], expected)
        fits.append((chi_square_p_value(statistic, n - 1), statistic, expected))
    _, statistic, expected = max(fits, key=lambda f: f[0])
    worst = max(range(n), key=lambda e: abs(counts[e] - expected[e]))
    cell = {"element": worst, "weight": weights[worst], "chosen": counts[worst]}
    cell["expected"] = round(expected[worst], 1)
    shape = "picks proportional to the weights or to their inverses"
    return verdict("proportional", statistic, n - 1, alpha / 2, runs, cell, shape=shape)
