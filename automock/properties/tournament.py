"""Fairness of a tournament selection: the best of ``size`` contestants drawn at random.

A tournament picks ``size`` members of a population uniformly, with or without
replacement, and returns the fittest (or, for a cost, the least). On ``n`` members of
distinct weights ``1..n`` that fixes how often each wins: the ``r``-th best wins a
tournament drawn without replacement with probability ``C(n - r, size - 1) / C(n, size)``
(the worst ``size - 1`` never win), and one drawn with replacement with
``((n - r + 1)**size - (n - r)**size) / n**size``. :func:`tournament_fairness` runs the
function on a fixed input under derived seeds and tests the winners against each of the
four schemes (with or without replacement, the fittest or the least fit) by chi-square:
a tournament that never lets the last member in, or always lets the first in, fits none.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from automock.errors import InputError
from automock.properties._signature import signature_of
from automock.properties.distribution import (
    DistributionResult,
    Raised,
    chi_square_p_value,
    chi_square_statistic,
    observe_runs,
    raised_result,
    verdict,
)
from automock.properties.infer import AppliedProperty, name_tokens
from automock.properties.observe import Observations
from automock.properties.relations import Relation
from automock.properties.together import WEIGHT_NAMES, length_of

__all__ = [
    "TOURNAMENT_MEMBERS",
    "TOURNAMENT_SIZE",
    "tournament_fairness",
    "tournament_hint",
    "winning_odds",
]

# the check's tournament: 3 of 4 members. Of 2, a tournament whose later entrants are
# drawn from all members but the last wins exactly as a fair one drawn without
# replacement does (first any of n, then any other); of 3 its odds differ from all four
# schemes, by the most on 4 members (chi-square 57 expected over 1000 runs, 38 on 5)
TOURNAMENT_MEMBERS = 4
TOURNAMENT_SIZE = 3
# a tournament's size: `k` as most write it, `tournament_size`, `t`
_SIZE_NAMES = frozenset({"k", "t", "size", "tournament_size", "tournament_k", "tsize"})


def winning_odds(n: int, size: int, *, replacement: bool) -> list[float]:
    """How often the ``r``-th best of ``n`` wins, ``r = 1..n`` (the best first)."""
    if replacement:
        return [((n - r + 1) ** size - (n - r) ** size) / n**size for r in range(1, n + 1)]
    return [math.comb(n - r, size - 1) / math.comb(n, size) for r in range(1, n + 1)]


def _fit(counts: list[int], odds: list[float], runs: int) -> tuple[float, float, int]:
    """(p-value, statistic, degrees of freedom) of ``counts`` against ``odds``; a win where
    the scheme allows none rules it out."""
    if any(c and not p for c, p in zip(counts, odds, strict=True)):
        return 0.0, math.inf, 1
    cells = [(float(c), runs * p) for c, p in zip(counts, odds, strict=True) if p]
    dof = max(1, len(cells) - 1)
    statistic = chi_square_statistic([c for c, _ in cells], [e for _, e in cells])
    return chi_square_p_value(statistic, dof), statistic, dof


def tournament_fairness(
    pick: Callable[[list[int], list[float], int], Any],
    *,
    n: int = TOURNAMENT_MEMBERS,
    size: int = TOURNAMENT_SIZE,
    runs: int = 2000,
    seed: int = 0,
    alpha: float = 1e-3,
) -> DistributionResult:
    """Does ``pick`` (one winner of a tournament of ``size``, or a list of winners of
    separate tournaments) win as a tournament does?

    ``pick`` is called on ``list(range(n))`` with weights ``1..n`` (member ``e`` weighs
    ``e + 1``) and ``size``; it passes when the winners fit one of the four schemes of
    the module docstring at ``alpha / 4``. A winner that is not a member fails outright.
    """
    if not 1 <= size < n:
        raise InputError(f"a tournament's fairness needs 1 <= size < n, got {size}, n={n}")
    weights = [float(w) for w in range(1, n + 1)]
    try:
        outcomes = observe_runs(lambda: pick(list(range(n)), list(weights), size), runs, seed)
    except Raised as raised:
        return raised_result("tournament", n - 1, alpha, runs, raised)
    counts = [0] * n  # by rank from the best: counts[0] is the fittest member's wins
    for outcome in outcomes:
        winners = list(outcome) if isinstance(outcome, list | tuple) else [outcome]
        for winner in winners:
            if type(winner) is not int or not 0 <= winner < n:
                detail = f"tournament returned {outcome!r}, not members of {list(range(n))!r}"
                return DistributionResult(
                    "tournament", False, math.inf, n - 1, 0.0, alpha, runs, detail, outcome
                )
            counts[n - 1 - winner] += 1
    total = sum(counts)
    schemes = []
    for replacement in (False, True):
        odds = winning_odds(n, size, replacement=replacement)
        for least in (False, True):  # a cost: the least wins, the ranks read backwards
            shares = odds[::-1] if least else odds
            schemes.append((*_fit(counts, shares, total), shares))
    _, statistic, dof, shares = max(schemes, key=lambda s: s[0])
    worst = max(range(n), key=lambda r: abs(counts[r] - total * shares[r]))
    cell = {"member": n - 1 - worst, "weight": weights[n - 1 - worst], "won": counts[worst]}
    cell["expected"] = round(total * shares[worst], 1)
    shape = f"winners of tournaments of {size} (with or without replacement)"
    return verdict("tournament", statistic, dof, alpha / 4, runs, cell, shape=shape)


def tournament_hint(
    found: Mapping[str, Relation], observed: Observations, name: str, fn: Callable[..., Any]
) -> list[AppliedProperty]:
    """A function named for a tournament, given a list, its weights (``fitnesses``) and a
    tournament size (``k``), seen returning members of the list, is checked as one
    (``tournament``); a count of winners beside them (``num_selections``) is set to 1."""
    if "tournament" not in name_tokens(name) or not {"member", "subset", "submultiset"} & set(
        found
    ):
        return []
    signature = signature_of(fn)
    if signature is None:
        return []
    params = [
        p.name
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]
    lengths = {params[j] for _, j in length_of(params, range(len(params)))}
    weights = [p for p in params if p.lower().endswith(WEIGHT_NAMES)]
    sizes = [p for p in params if p.lower() in _SIZE_NAMES and p not in lengths]
    lists = {
        p
        for o in observed.accepted
        for p, a in zip(observed.parameters, o.args, strict=False)
        if isinstance(a, list)
    } - set(weights)
    if len(weights) != 1 or len(sizes) != 1 or len(lists) != 1:
        return []
    (items,) = lists
    rest = [p for p in observed.parameters if p not in {items, weights[0], sizes[0]}]
    if len(rest) > 1:
        return []
    names = {"list": items, "weights": weights[0], "size": sizes[0]}
    if rest:
        names["count"] = rest[0]
    evidence = (
        f"name: a tournament; {weights[0]!r} holds the weights, {sizes[0]!r} the tournament's size"
    )
    options = {"n": TOURNAMENT_MEMBERS, "k": TOURNAMENT_SIZE, "tournament": names}
    return [AppliedProperty("tournament", options, "name", evidence)]
