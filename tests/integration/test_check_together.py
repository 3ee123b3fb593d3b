"""``automock check`` fits arguments that go together: a stretch's ends to its list, weights
to their population, and reads a generator's draws (issue 30). Unfitted, each correct
function below raised on generated inputs and was reported failing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, written_module

SOURCE = """
import random


def _partition(A, p, r):
    q = random.randint(p, r)
    A[q], A[r] = A[r], A[q]
    i = p - 1
    for j in range(p, r):
        if A[j] <= A[r]:
            i += 1
            A[i], A[j] = A[j], A[i]
    A[i + 1], A[r] = A[r], A[i + 1]
    return i + 1


def randomized_quicksort(A, p, r):
    if p < r:
        q = _partition(A, p, r)
        randomized_quicksort(A, p, q - 1)
        randomized_quicksort(A, q + 1, r)


def randomized_quicksort_off(A, p, r):
    if p < r:
        q = _partition(A, p, r)
        randomized_quicksort_off(A, p, q - 2)
        randomized_quicksort_off(A, q + 1, r)


def roulette(population, fitnesses):
    spin = random.uniform(0, sum(fitnesses))
    reached = 0.0
    for member, fit in zip(population, fitnesses):
        reached += fit
        if reached >= spin:
            return member
    return population[-1]


def pick_between(items, start_ind, end_ind):
    return items[random.randint(start_ind, end_ind)]


def rank_between(items, lo_idx, hi_idx, i_order):
    if lo_idx == hi_idx:
        return items[lo_idx]
    stretch = items[lo_idx : hi_idx + 1]
    return sorted(random.sample(stretch, len(stretch)))[i_order % len(stretch)]


def draws(population, k):
    pool = list(population)
    for _ in range(min(k, len(pool))):
        yield pool.pop(random.randrange(len(pool)))
"""


module = written_module("together.py", SOURCE)


def _names(report: dict) -> set[str]:  # type: ignore[type-arg]
    return {p["property"] for p in report["properties"]}


def test_a_sort_of_a_stretch_is_checked_on_the_whole_list(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "randomized_quicksort")
    assert {"sorted", "permutation"} <= _names(report)
    assert code == 0, report["results"]
    code, report = check_json(capsys, module, "randomized_quicksort_off")
    assert code == 1, report["results"]


def test_weights_get_one_per_member_and_the_wheel_is_checked(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "roulette")
    assert {"subset", "proportional"} <= _names(report)
    assert code == 0, report["results"]


def test_a_generator_of_draws_is_checked_as_the_sample_it_yields(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "draws")
    assert "sample" in _names(report)
    assert code == 0, report["results"]


def test_ends_with_an_index_suffix_span_the_list(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # start_ind/end_ind are a stretch's ends like start/end: generated apart, the end ran
    # past the list and the correct pick was reported failing
    code, report = check_json(capsys, module, "pick_between")
    assert code == 0, report["results"]


def test_a_rank_named_with_an_index_prefix_is_an_int(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `i_order` is a rank, not a list: taken for a list, every call on a longer list was
    # refused, the one-element calls told nothing, and a sorted-output guess failed on them
    code, report = check_json(capsys, module, "rank_between")
    assert "order_statistic" in _names(report)
    assert code == 0, report["results"]
