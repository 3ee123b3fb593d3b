"""``automock check`` on picks by weight or rank and on selections that draw (issue 30).

Each buggy function below passed the checks inferred before its rule: a wheel given its
population's size beside the population, a linear rank selection, a tournament that never
lets the last member in, a quickselect right on only some of its draws, and a lottery whose
balls are numbered from 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import written_module

SOURCE = """
import random


def roulette_wheel(population, fitness_values, population_size):
    total = sum(fitness_values)
    spin = random.uniform(0, 1)
    reached = 0.0
    for i in range(population_size):
        reached += fitness_values[i] / total
        if reached >= spin:
            return population[i]
    return population[-1]


def roulette_wheel_shifted(population, fitness_values, population_size):
    total = sum(fitness_values)
    spin = random.uniform(0, 1)
    reached = 0.0
    for i in range(population_size):
        reached += fitness_values[i] / total
        if reached >= spin:
            return population[i - 1]
    return population[-1]


def _ranks(fitnesses):
    order = sorted(range(len(fitnesses)), key=lambda i: fitnesses[i])
    ranks = [0] * len(fitnesses)
    for position, i in enumerate(order):
        ranks[i] = position + 1  # the worst 1, the best len
    return ranks


def rank_selection(population, fitnesses):
    ranks = _ranks(fitnesses)
    spin = random.uniform(0, sum(ranks))
    reached = 0
    for member, rank in zip(population, ranks):
        reached += rank
        if reached >= spin:
            return member
    return population[-1]


def rank_selection_low(population, fitnesses):
    ranks = _ranks(fitnesses)
    spin = random.uniform(0, sum(ranks))
    reached = 0
    for member, rank in zip(population, ranks):
        reached += rank - 1
        if reached >= spin:
            return member
    return population[-1]


def tournament(population, fitnesses, k):
    entrants = random.sample(range(len(population)), k)
    return population[max(entrants, key=lambda i: fitnesses[i])]


def tournament_short(population, fitnesses, k):
    entrants = random.sample(range(len(population) - 1), k)  # the last never enters
    return population[max(entrants, key=lambda i: fitnesses[i])]


def tournament_late(population, fitnesses, k):
    first = random.randrange(len(population))
    rest = [random.randrange(len(population) - 1) for _ in range(k - 1)]  # never the last
    return population[min([first, *rest], key=lambda i: fitnesses[i])]  # a cost


def _split(xs, lo, hi, first):
    p = random.randint(lo, hi)
    xs[p], xs[hi] = xs[hi], xs[p]
    store = lo
    for i in range(first, hi):
        if xs[i] < xs[hi]:
            xs[i], xs[store] = xs[store], xs[i]
            store += 1
    xs[store], xs[hi] = xs[hi], xs[store]
    return store


def _select(xs, k, skip):
    if not 0 <= k < len(xs):
        raise IndexError("k outside the list")
    xs = list(xs)
    lo, hi = 0, len(xs) - 1
    while lo < hi:
        p = _split(xs, lo, hi, lo + skip)
        if p == k:
            return xs[p]
        if p < k:
            lo = p + 1
        else:
            hi = p - 1
    return xs[lo]


def quickselect(xs, k):
    return _select(xs, k, 0)


def quickselect_skipping(xs, k):
    return _select(xs, k, 1)  # the partition never looks at its first element


def _halve(xs):
    at = random.randrange(len(xs))
    xs[at], xs[0] = xs[0], xs[at]
    pivot, edge = xs[0], 1
    for j in range(1, len(xs)):
        if xs[j] < pivot:
            xs[edge], xs[j] = xs[j], xs[edge]
            edge += 1
    xs[edge - 1], xs[0] = xs[0], xs[edge - 1]
    return edge - 1


def _rank(xs, n, early):
    if not 1 <= n <= len(xs):
        return None
    xs = list(xs)
    while len(xs) > 1:
        p = _halve(xs)
        if n - 1 == p or (early and n - 2 == p and len(xs) > 2):  # one rank early, at times
            return xs[p]
        xs, n = (xs[:p], n) if n - 1 < p else (xs[p + 1 :], n - p - 1)
    return xs[0]


def random_selection(xs, n):
    return _rank(xs, n, False)


def random_selection_early(xs, n):
    return _rank(xs, n, True)


def lotto_draw():
    return sorted(random.sample(range(1, 50), 6))


def lotto_draw_from_two():
    return sorted(random.sample(range(2, 51), 6))  # balls numbered one too high


def sortear_mega_sena():
    numeros = random.sample(range(1, 61), 6)
    numeros.sort()
    return numeros


def sortear_mega_sena_repetindo():
    numeros = random.choices(range(1, 61), k=6)
    numeros.sort()
    return numeros
"""


module = written_module("picks.py", SOURCE)


def _check(
    capsys: pytest.CaptureFixture[str], module: Path, function: str, runs: int = 600
) -> tuple[int, dict]:  # type: ignore[type-arg]
    from automock.cli import main

    argv = ["check", f"{module}::{function}", "--examples", "30", "--runs", str(runs), "--json"]
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def _names(report: dict) -> set[str]:  # type: ignore[type-arg]
    return {p["property"] for p in report["properties"]}


def test_a_wheel_given_its_population_size_is_checked_by_weight(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "roulette_wheel")
    assert "proportional" in _names(report)
    assert code == 0, report["results"]
    code, report = _check(capsys, module, "roulette_wheel_shifted")
    assert code == 1, report["results"]


def test_a_rank_selection_picks_in_proportion_to_rank(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "rank_selection")
    assert "proportional" in _names(report)
    assert code == 0, report["results"]
    code, report = _check(capsys, module, "rank_selection_low")
    assert code == 1, report["results"]


def test_a_selection_right_only_on_some_draws_fails(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "quickselect")
    assert "order_statistic" in _names(report)
    assert code == 0, report["results"]
    code, report = _check(capsys, module, "quickselect_skipping")
    assert "order_statistic" in _names(report)
    assert code == 1, report["results"]


def test_a_tournament_wins_as_the_best_of_its_entrants(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "tournament")
    assert "tournament" in _names(report)
    assert code == 0, report["results"]
    code, report = _check(capsys, module, "tournament_short")
    assert code == 1, report["results"]


def test_a_tournament_whose_later_entrants_skip_the_last_member_fails(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # of two entrants it wins as a fair tournament drawn without replacement does; of three
    # its odds fit none of the four schemes
    code, report = _check(capsys, module, "tournament_late", runs=1000)
    assert "tournament" in _names(report)
    assert code == 1, report["results"]


def test_a_random_selection_right_on_most_calls_is_held_to_its_rank(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "random_selection")
    assert code == 0, report["results"]
    code, report = _check(capsys, module, "random_selection_early")
    assert "order_statistic" in _names(report)
    assert code == 1, report["results"]


def test_a_lottery_numbers_its_balls_from_one(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "lotto_draw")
    assert code == 0, report["results"]
    code, report = _check(capsys, module, "lotto_draw_from_two")
    assert code == 1, report["results"]
    assert any("1 drawn 0 times" in r["detail"] for r in report["results"]), report["results"]


@pytest.mark.parametrize(
    ("function", "code"), [("sortear_mega_sena", 0), ("sortear_mega_sena_repetindo", 1)]
)
def test_a_lottery_named_for_its_game_draws_distinct_numbers(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    """Mega-Sena, Quina, Powerball... are lotteries (batch t): six numbers, none twice."""
    got, report = _check(capsys, module, function)
    assert "unique" in _names(report), report["properties"]
    assert got == code, report["results"]
