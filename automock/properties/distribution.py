"""Distribution checks: is a random function fair over many seeded runs?

A biased shuffle still returns a permutation every time, so no single-run
property catches it. Here the function runs ``runs`` times, each under its
own derived seed (so the whole check is reproducible), the outcomes are
counted, and a chi-square goodness-of-fit test against the uniform
distribution decides. The p-value comes from the regularized upper
incomplete gamma function, implemented here (series + Lentz continued
fraction) so scipy is not needed.

Two views of a shuffle:

* ``mode="position"``: an ``n x n`` table of where each element ends up.
  Rows and columns of a permutation table both sum to ``runs``, and the cells
  of one run are not independent, so the plain Pearson statistic is scaled by
  ``(n - 1) / n`` and compared with ``(n - 1)**2`` degrees of freedom (the
  uniform permutation's covariance is isotropic on that subspace).
* ``mode="permutation"``: a histogram over all ``n!`` orderings (``n <= 6``),
  a plain multinomial test with ``n! - 1`` degrees of freedom; more powerful
  for small ``n``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from automock._seed import derive
from automock._serialize import JsonMixin
from automock.errors import InputError

__all__ = [
    "REPLICATION_ALPHA",
    "SHUFFLE_LENGTH",
    "DistributionResult",
    "Raised",
    "chi_square_p_value",
    "chi_square_statistic",
    "choice_uniformity",
    "observe_runs",
    "raised_result",
    "replicated",
    "shuffle_uniformity",
    "uniformity",
    "verdict",
]

# the list a shuffle's fairness is tested on: the swap-with-any-index shuffle's bias shrinks
# per cell but grows in total with the length; with 1000 runs at alpha 1e-4 the chi-square
# finds it about 69% of the time on 5 elements, 95% on 8 (125 expected per cell)
SHUFFLE_LENGTH = 8


@dataclass(frozen=True, slots=True)
class DistributionResult(JsonMixin):
    """Verdict of a chi-square test; ``counterexample`` is the most surprising cell."""

    name: str
    passed: bool
    statistic: float
    dof: int
    p_value: float
    alpha: float
    runs: int
    detail: str = ""
    counterexample: Any = None

    def __bool__(self) -> bool:
        return self.passed


# -- the chi-square distribution ------------------------------------------------


def _lower_series(a: float, x: float) -> float:
    """Regularized lower incomplete gamma P(a, x) by its power series (x < a + 1)."""
    term = 1.0 / a
    total = term
    denom = a
    for _ in range(10_000):
        denom += 1.0
        term *= x / denom
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) by a continued fraction (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def chi_square_p_value(statistic: float, dof: int) -> float:
    """``P(X >= statistic)`` for ``X ~ chi2(dof)``: the upper tail, ``Q(dof/2, statistic/2)``."""
    if dof <= 0:
        raise InputError(f"chi-square needs at least 1 degree of freedom, got {dof}")
    if statistic <= 0:
        return 1.0
    if math.isinf(statistic):  # a count where the hypothesis allows none: ruled out
        return 0.0
    a, x = dof / 2.0, statistic / 2.0
    if x < a + 1.0:
        return max(0.0, min(1.0, 1.0 - _lower_series(a, x)))
    return max(0.0, min(1.0, _upper_fraction(a, x)))


def chi_square_statistic(observed: Sequence[float], expected: Sequence[float]) -> float:
    """Pearson's ``sum((O - E)**2 / E)``."""
    if len(observed) != len(expected):
        raise InputError(f"observed has {len(observed)} cells but expected has {len(expected)}")
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)


# -- seeded runs ----------------------------------------------------------------


def derive_seed(seed: int, index: int) -> int:
    """A 32-bit seed for run ``index`` of a check seeded with ``seed`` (kind ``"property run"``)."""
    return derive(seed, "property run", index, bits=32)


@contextlib.contextmanager
def _python_random(seed: int) -> Iterator[None]:
    state = random.getstate()
    random.seed(seed)
    try:
        yield
    finally:
        random.setstate(state)


def seeder() -> Callable[[int], contextlib.AbstractContextManager[Any]]:
    """The runtime's ``seeded_random`` (every RNG), else Python's ``random`` only."""
    try:
        from automock.runtime.entropy import seeded_random
    except ImportError:  # runtime not installed in this build
        return _python_random
    return seeded_random


class Raised(Exception):
    """The function under check raised: the check fails, it does not crash."""

    def __init__(self, exc: Exception, index: int) -> None:
        super().__init__(f"run {index} raised {type(exc).__name__}: {exc}"[:300])
        self.exc = exc


def observe_runs(observe: Callable[[], Any], runs: int, seed: int) -> list[Any]:
    seeded = seeder()
    outcomes = []
    for index in range(runs):
        with seeded(derive_seed(seed, index)):
            try:
                outcomes.append(observe())
            except Exception as exc:
                raise Raised(exc, index) from exc
    return outcomes


def raised_result(
    name: str, dof: int, alpha: float, runs: int, raised: Raised
) -> DistributionResult:
    detail = str(raised)
    return DistributionResult(name, False, math.inf, dof, 0.0, alpha, runs, detail, detail)


# -- tests ----------------------------------------------------------------------


def uniformity(
    observe: Callable[[], Hashable],
    categories: Sequence[Hashable],
    *,
    runs: int = 2000,
    seed: int = 0,
    alpha: float = 1e-3,
    name: str = "uniform",
) -> DistributionResult:
    """Run ``observe()`` ``runs`` times under derived seeds; are its outcomes uniform over ``categories``?

    An outcome outside ``categories`` fails at once and is the counterexample.
    """
    if len(categories) < 2:
        raise InputError(f"a uniformity test needs at least 2 categories, got {len(categories)}")
    if runs < 5 * len(categories):
        raise InputError(
            f"runs={runs} is too few for {len(categories)} categories; use at least {5 * len(categories)}"
        )
    try:
        outcomes = observe_runs(observe, runs, seed)
    except Raised as raised:
        return raised_result(name, len(categories) - 1, alpha, runs, raised)
    allowed = set(categories)
    for outcome in outcomes:
        if outcome not in allowed:
            return DistributionResult(
                name,
                False,
                math.inf,
                len(categories) - 1,
                0.0,
                alpha,
                runs,
                f"outcome {outcome!r} is not one of the categories",
                outcome,
            )
    counts = Counter(outcomes)
    expected = runs / len(categories)
    observed = [float(counts[c]) for c in categories]
    statistic = chi_square_statistic(observed, [expected] * len(categories))
    worst = max(categories, key=lambda c: abs(counts[c] - expected))
    cell = {"category": worst, "observed": counts[worst], "expected": expected}
    return verdict(name, statistic, len(categories) - 1, alpha, runs, cell)


def verdict(
    name: str,
    statistic: float,
    dof: int,
    alpha: float,
    runs: int,
    cell: dict[str, Any],
    *,
    shape: str = "uniform",
) -> DistributionResult:
    """The result of a chi-square ``statistic``: passed when its p-value is ``alpha`` or more."""
    p_value = chi_square_p_value(statistic, dof)
    passed = p_value >= alpha
    detail = (
        f"chi2={statistic:.2f} dof={dof} p={p_value:.3g} over {runs} seeded runs; "
        f"{'consistent with ' if passed else 'not '}{shape} at alpha={alpha:g}"
    )
    if not passed:
        detail += f"; most surprising: {cell}"
    return DistributionResult(
        name, passed, statistic, dof, p_value, alpha, runs, detail, None if passed else cell
    )


def _permutes(outcome: object, n: int) -> bool:
    """Is ``outcome`` a permutation of ``range(n)`` (plain ints, any order)? Never raises:
    a shuffle may return anything, mixed types or a non-sequence included."""
    if not isinstance(outcome, (list, tuple)) or len(outcome) != n:
        return False
    if any(type(element) is not int for element in outcome):
        return False
    return sorted(outcome) == list(range(n))


def _shuffled(shuffle: Callable[[list[int]], Any], n: int) -> tuple[int, ...]:
    items = list(range(n))
    result = shuffle(items)
    return tuple(items if result is None else result)


def shuffle_uniformity(
    shuffle: Callable[[list[int]], Any],
    *,
    n: int | None = None,
    runs: int = 2000,
    seed: int = 0,
    alpha: float = 1e-3,
    mode: str = "position",
) -> DistributionResult:
    """Is ``shuffle`` (in place, or returning the shuffled list) unbiased?

    ``shuffle`` is called on ``list(range(n))`` once per run (``n``: 8, or 5 by permutation).
    A run whose output is not a permutation of the input fails the check outright.
    """
    if mode not in ("position", "permutation"):
        raise InputError(f"mode must be one of position, permutation, got {mode!r}")
    if n is None:  # n! orders: 120 at 5; a position table has the power on 8
        n = 5 if mode == "permutation" else SHUFFLE_LENGTH
    if n < 2:
        raise InputError(f"n must be at least 2 to test a shuffle, got {n}")
    if mode == "permutation":
        if n > 6:
            raise InputError(f"mode='permutation' needs n <= 6 (n! categories), got n={n}")
        perms = list(itertools.permutations(range(n)))
        return uniformity(
            lambda: _shuffled(shuffle, n), perms, runs=runs, seed=seed, alpha=alpha, name="uniform"
        )
    try:
        outcomes = observe_runs(lambda: _shuffled(shuffle, n), runs, seed)
    except Raised as raised:
        return raised_result("uniform", (n - 1) ** 2, alpha, runs, raised)
    table = [[0] * n for _ in range(n)]  # table[element][position]
    for outcome in outcomes:
        if not _permutes(outcome, n):
            return DistributionResult(
                "uniform",
                False,
                math.inf,
                (n - 1) ** 2,
                0.0,
                alpha,
                runs,
                f"shuffle returned {list(outcome)!r}, not a permutation of {list(range(n))!r}",
                list(outcome),
            )
        for position, element in enumerate(outcome):
            table[element][position] += 1
    expected = runs / n
    pearson = sum((table[e][p] - expected) ** 2 / expected for e in range(n) for p in range(n))
    statistic = pearson * (n - 1) / n
    e_worst, p_worst = max(
        itertools.product(range(n), range(n)), key=lambda ep: abs(table[ep[0]][ep[1]] - expected)
    )
    cell = {
        "element": e_worst,
        "position": p_worst,
        "observed": table[e_worst][p_worst],
        "expected": expected,
    }
    return verdict("uniform", statistic, (n - 1) ** 2, alpha, runs, cell)


def choice_uniformity(
    choose: Callable[[list[int]], Any],
    *,
    n: int = 5,
    runs: int = 2000,
    seed: int = 0,
    alpha: float = 1e-3,
) -> DistributionResult:
    """Is ``choose`` (one element of the list it is given) fair over the list's elements?

    ``choose`` is called on ``list(range(n))`` once per run; an outcome that is not
    an element of it fails the check outright.
    """
    if n < 2:
        raise InputError(f"n must be at least 2 to test a choice, got {n}")
    return uniformity(
        lambda: choose(list(range(n))), list(range(n)), runs=runs, seed=seed, alpha=alpha
    )


# a chance rejection must recur on fresh seeds at this level before it is taken for a bias
REPLICATION_ALPHA = 0.01


def replicated(
    check: Callable[[float, int, int], DistributionResult], alpha: float, seed: int, runs: int
) -> DistributionResult:
    """``check(alpha, seed, runs)``, whose narrow rejection stands only if it recurs on fresh
    seeds.

    A fair function fails a test at ``alpha`` once in ``1 / alpha`` checks by chance, and
    a corpus checked over several seeds meets that (two fair weighted picks built on the
    same bisect drew the same unlucky runs under one seed: p = 0.00043 against 0.0005).
    A rejection with a p-value below ``alpha / 100`` stands at once (chance gives one in
    ``100 / alpha`` checks). One between that and ``alpha`` is run again on fresh seeds,
    twice as many runs, and kept only if that run rejects too, at
    :data:`REPLICATION_ALPHA` or ``alpha`` if larger. Chance then fails a fair function
    about ``alpha / 50`` of the time, while a real bias, whose p-value shrinks as the runs
    grow, still fails (a pick by weight whose total leaves out the first weight: p = 2e-6
    on 1000 runs, 0.005 on another 1000, far below on 2000). A value outside the categories
    or a raise is no chance and is not run again.
    """
    first = check(alpha, seed, runs)
    if first.passed or first.p_value < first.alpha / 100 or not math.isfinite(first.statistic):
        return first
    level = max(alpha, REPLICATION_ALPHA)
    again = check(level, derive(seed, "replication", 0, bits=32), 2 * runs)
    if again.passed:
        detail = (
            f"rejected once by chance (p={first.p_value:.3g}), not on fresh seeds: {again.detail}"
        )
        return dataclasses.replace(again, detail=detail)
    said = f"again on {again.runs} fresh seeded runs: p={again.p_value:.3g} at alpha={level:g}"
    return dataclasses.replace(first, detail=f"{first.detail}; {said}")
