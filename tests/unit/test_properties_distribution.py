"""Chi-square uniformity: a fair shuffle passes, a naive swap-with-any shuffle fails."""

from __future__ import annotations

import random

import pytest

from automock.errors import InputError
from automock.properties import (
    chi_square_p_value,
    chi_square_statistic,
    shuffle_uniformity,
    uniformity,
)

SEEDS = (0, 1, 2)


def naive_shuffle(items: list[int]) -> None:
    """The classic bug: swap each position with ANY position (n**n outcomes, not n!)."""
    n = len(items)
    for i in range(n):
        j = random.randint(0, n - 1)
        items[i], items[j] = items[j], items[i]


def fisher_yates(items: list[int]) -> list[int]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = random.randint(0, i)
        out[i], out[j] = out[j], out[i]
    return out


# Reference values of the chi-square upper tail (survival function), from tables.
@pytest.mark.parametrize(
    ("statistic", "dof", "expected"),
    [
        (3.841458820694124, 1, 0.05),
        (6.634896601021214, 1, 0.01),
        (9.487729036781154, 4, 0.05),
        (18.307038053275146, 10, 0.05),
        (124.34211340400407, 100, 0.05),
        (2.0, 2, 0.36787944117144233),  # exp(-1): chi2 with 2 dof is exponential
        (0.0, 3, 1.0),
    ],
)
def test_p_value_matches_reference_values(statistic: float, dof: int, expected: float) -> None:
    assert chi_square_p_value(statistic, dof) == pytest.approx(expected, rel=1e-6)


def test_p_value_is_monotone_and_bounded() -> None:
    values = [chi_square_p_value(x, 16) for x in range(0, 200, 5)]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert values == sorted(values, reverse=True)


def test_p_value_rejects_zero_degrees_of_freedom() -> None:
    with pytest.raises(InputError):
        chi_square_p_value(1.0, 0)


def test_statistic() -> None:
    assert chi_square_statistic([10, 10], [10, 10]) == 0
    assert chi_square_statistic([15, 5], [10, 10]) == pytest.approx(5.0)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("mode", ["position", "permutation"])
def test_random_shuffle_passes(seed: int, mode: str) -> None:
    result = shuffle_uniformity(random.shuffle, n=4, runs=1500, seed=seed, mode=mode)
    assert result.passed, result.detail
    assert result.counterexample is None


@pytest.mark.parametrize("seed", SEEDS)
def test_returning_fisher_yates_passes(seed: int) -> None:
    assert shuffle_uniformity(fisher_yates, n=5, runs=1500, seed=seed).passed


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("mode", ["position", "permutation"])
def test_naive_shuffle_fails(seed: int, mode: str) -> None:
    result = shuffle_uniformity(naive_shuffle, n=4, runs=1500, seed=seed, mode=mode)
    assert not result.passed, result.detail
    assert result.p_value < result.alpha
    assert "not uniform" in result.detail
    assert result.counterexample["observed"] != result.counterexample["expected"]


def test_same_seed_same_statistic_different_seed_different() -> None:
    a = shuffle_uniformity(random.shuffle, n=4, runs=400, seed=7)
    b = shuffle_uniformity(random.shuffle, n=4, runs=400, seed=7)
    c = shuffle_uniformity(random.shuffle, n=4, runs=400, seed=8)
    assert a.statistic == b.statistic
    assert a.statistic != c.statistic


def test_position_statistic_is_calibrated_for_a_fair_shuffle() -> None:
    # Under the null the p-value is uniform: about 5% of fair runs fall below 0.05.
    p_values = [
        shuffle_uniformity(random.shuffle, n=4, runs=80, seed=s).p_value for s in range(200)
    ]
    rejected = sum(p < 0.05 for p in p_values) / len(p_values)
    assert 0.01 <= rejected <= 0.10


def test_a_shuffle_that_loses_elements_fails_outright() -> None:
    result = shuffle_uniformity(lambda xs: xs[:-1], n=3, runs=100)
    assert not result.passed and "not a permutation" in result.detail


def test_generic_uniformity_over_categories() -> None:
    fair = uniformity(lambda: random.randrange(6), range(6), runs=1200, seed=3)
    loaded = uniformity(
        lambda: min(random.randrange(6), random.randrange(6)), range(6), runs=1200, seed=3
    )
    assert fair.passed and not loaded.passed
    assert loaded.counterexample["category"] in range(6)


def test_outcome_outside_categories_is_the_counterexample() -> None:
    result = uniformity(lambda: 7, range(3), runs=30)
    assert not result.passed and result.counterexample == 7


def test_bad_arguments_are_input_errors() -> None:
    with pytest.raises(InputError, match="n <= 6"):
        shuffle_uniformity(random.shuffle, n=8, mode="permutation")
    with pytest.raises(InputError, match="mode"):
        shuffle_uniformity(random.shuffle, mode="bogus")
    with pytest.raises(InputError, match="too few"):
        uniformity(lambda: 0, range(10), runs=10)
