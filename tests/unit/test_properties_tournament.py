"""Winning odds of a tournament selection, and its check on plain pickers (issue 30)."""

from __future__ import annotations

import random

import pytest

from automock.properties.tournament import tournament_fairness, winning_odds


@pytest.mark.parametrize("replacement", [False, True])
def test_the_odds_of_every_rank_add_up_to_one(replacement: bool) -> None:
    odds = winning_odds(6, 3, replacement=replacement)
    assert sum(odds) == pytest.approx(1.0)
    assert odds == sorted(odds, reverse=True)  # the fitter, the likelier


def test_without_replacement_the_weakest_never_win() -> None:
    assert winning_odds(6, 3, replacement=False)[-2:] == [0.0, 0.0]


def test_a_least_cost_tournament_passes_and_a_fair_choice_does_not() -> None:
    def cheapest(items: list[int], weights: list[float], size: int) -> int:
        entrants = [random.randrange(len(items)) for _ in range(size)]
        return items[min(entrants, key=lambda i: weights[i])]

    def anyone(items: list[int], weights: list[float], size: int) -> int:
        return random.choice(items)

    assert tournament_fairness(cheapest, runs=600, alpha=1e-4).passed
    assert not tournament_fairness(anyone, runs=600, alpha=1e-4).passed


def test_a_pick_no_scheme_allows_fails_however_far_off_every_scheme_is() -> None:
    # of 3 of 5 drawn without replacement the two weakest never win; a plain choice lets
    # them win, and fits the schemes with replacement so badly its p-values underflow to 0
    def anyone(items: list[int], weights: list[float], size: int) -> int:
        return random.choice(items)

    result = tournament_fairness(anyone, n=5, size=3, runs=600, alpha=1e-4)
    assert not result.passed
    assert result.p_value == 0.0
