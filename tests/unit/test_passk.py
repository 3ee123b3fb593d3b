"""pass@k against hand-computed values and its aggregation over problems."""

from __future__ import annotations

import math

import pytest

from automock import pass_at_k
from automock.errors import InputError
from automock.sandbox.batch.passk import estimate_pass_at_k, parse_ks


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (10, 3, 1, 0.3),  # pass@1 is the plain pass rate
        (5, 2, 2, 1 - 3 / 10),  # 1 - C(3,2)/C(5,2)
        (5, 5, 3, 1.0),  # every sample passes
        (7, 0, 3, 0.0),  # none passes
        (4, 1, 4, 1.0),  # drawing all samples always finds the correct one
        (10, 2, 3, 1 - 56 / 120),  # 1 - C(8,3)/C(10,3)
        (1, 1, 1, 1.0),
    ],
)
def test_hand_computed(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


def test_matches_binomial_form_for_large_n() -> None:
    n, c, k = 200, 17, 100
    exact = 1 - math.comb(n - c, k) / math.comb(n, k)
    assert pass_at_k(n, c, k) == pytest.approx(exact, rel=1e-9)


def test_k_greater_than_n_is_refused_with_the_fix() -> None:
    with pytest.raises(InputError, match=r"k=10 exceeds the 3 samples"):
        pass_at_k(3, 1, 10)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 4, 1), (-1, 0, 1), (3, 1, 0)])
def test_invalid_counts(n: int, c: int, k: int) -> None:
    with pytest.raises(InputError):
        pass_at_k(n, c, k)


def test_estimate_per_problem_and_overall() -> None:
    result = estimate_pass_at_k(
        {"a": [True, False, False, False, False], "b": [True, True, False, False, False]},
        ks=[1, 2, 10],
    )
    scores = {p.task_id: p for p in result.problems}
    assert (scores["a"].n, scores["a"].c) == (5, 1)
    assert scores["a"].pass_at_k["1"] == pytest.approx(0.2)
    assert scores["a"].pass_at_k["2"] == pytest.approx(1 - 6 / 10)
    assert scores["b"].pass_at_k["2"] == pytest.approx(0.7)
    assert "10" not in scores["a"].pass_at_k
    assert result.overall["1"] == pytest.approx((0.2 + 0.4) / 2)
    assert result.overall["2"] == pytest.approx((0.4 + 0.7) / 2)
    assert result.skipped == (10,)
    assert "overall (2 problems)" in result.format()


def test_estimate_accepts_pairs() -> None:
    result = estimate_pass_at_k([("t", True), ("t", False), ("u", False), ("u", False)], ks=[1])
    assert result.overall == {"1": pytest.approx(0.25)}


def test_parse_ks() -> None:
    assert parse_ks("1,10,100") == (1, 10, 100)
    for bad in ("", "a", "0", "1,-2"):
        with pytest.raises(InputError, match="--pass-at-k"):
            parse_ks(bad)
