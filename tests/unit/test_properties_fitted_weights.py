"""Weights fitted beside their list are finite (issue 30).

A roulette selection given fitness ``[inf]`` (drawn by Hypothesis for an untyped float
list) builds no wheel and returns ``None``: a false alarm of ``subset`` on a correct
function of batch r under one seed of five. Weights are fitted from the finite values
drawn; none finite, all 1. Two finite weights of 9e307 add up to inf too (a false alarm
of ``subset`` given, under one seed of five, on the same function): each weight fitted is
at most a billion.
"""

from __future__ import annotations

import math

import pytest

from automock.properties.together import fitted

NAMES = ["population", "fitness_values"]


@pytest.mark.parametrize(
    "drawn",
    [[math.inf], [math.inf, 2.0], [-math.inf, math.nan], [math.nan, 3.0, math.inf]],
)
def test_weights_fitted_to_a_list_are_finite_and_positive(drawn: list[float]) -> None:
    population, weights = fitted((["a", "b", "c"], drawn), NAMES, list)
    assert population == ["a", "b", "c"]
    assert len(weights) == 3
    assert all(math.isfinite(w) and w > 0 for w in weights), weights


def test_finite_weights_drawn_are_kept_in_order() -> None:
    _, weights = fitted((["a", "b", "c"], [2.0, math.inf, 5.0]), NAMES, list)
    assert weights == [3.0, 6.0, 3.0]  # 2 and 5 (inf left out), each plus 1, repeated


def test_weights_fitted_to_a_list_add_up_to_a_finite_total() -> None:
    _, weights = fitted((["a", "b"], [8.98846567431158e307] * 2), NAMES, list)
    assert math.isfinite(sum(weights)), weights
    assert all(w > 0 for w in weights), weights
