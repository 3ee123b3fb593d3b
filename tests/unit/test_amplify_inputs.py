"""Input generation, output comparison and shrinking for ``--amplify`` (no sandbox)."""

from __future__ import annotations

import math

from automock.properties.amplify import (
    bounded,
    deterministic,
    generate_inputs,
    keep_reference_runs,
    shrink_steps,
)
from automock.properties.harness import harness_tests, read_summary
from automock.properties.outputs import fingerprint, same_output

TESTS = "def check(candidate):\n    assert candidate([3, 1, 2], 2) == [1, 2]\n"


def smallest(xs: list[int], k: int) -> list[int]:
    return sorted(xs)[:k]


def test_the_tests_inputs_come_first_then_mutants_and_draws_deterministically() -> None:
    first = generate_inputs(TESTS, "smallest", count=50, signature_of=smallest, seed=0)
    assert first[0] == ([3, 1, 2], 2)
    assert ([], 2) in first and ([3, 1, 2], 3) in first and ([3, 1, 2], 0) in first
    assert len(first) > 50
    assert first == generate_inputs(TESTS, "smallest", count=50, signature_of=smallest, seed=0)


def test_the_reference_filter_drops_raises_and_overruns_and_sorts_smallest_first() -> None:
    def picky(xs: list[int], k: int) -> list[int]:
        if k < 0:
            raise ValueError("k < 0")
        if k == 7:
            while True:
                pass
        return sorted(xs)[:k]

    inputs, outputs, _ = keep_reference_runs(
        picky, [([5, 4, 3], 2), ([1], -1), ([1], 7), ([], 0)], per_call=0.1
    )
    assert inputs == [([], 0), ([5, 4, 3], 2)]
    assert outputs == [[], [3, 4]]


def test_comparison_tolerates_float_noise_and_nothing_else() -> None:
    assert same_output(0.1 + 0.2, 0.3) and same_output(2, 2.0) and same_output(math.nan, math.nan)
    assert not same_output(1.0, 1.001) and not same_output(True, 1)
    assert not same_output([1, 2], (1, 2)) and not same_output([1, 2], [2, 1])
    assert same_output({1, 2}, {2, 1}) and same_output({"a": 1.0}, {"a": 1.0 + 1e-12})
    assert fingerprint({3, 1}) == fingerprint({1, 3}) and fingerprint(0.1 + 0.2) == fingerprint(0.3)


def test_shrink_steps_are_smaller_and_ints_are_bounded() -> None:
    steps = shrink_steps(([9, 8, 7], 3))
    assert ([9, 8], 3) in steps and ([9, 8, 7], 0) in steps
    assert bounded([(10**12, [10**9])], [(5,)]) == [(10**12 % 1000, [10**9 % 1000])]


def test_a_seed_dependent_reference_is_seen() -> None:
    import random

    assert deterministic(smallest, [([3, 1], 1)])
    assert not deterministic(lambda xs: random.sample(xs, len(xs)), [(list(range(20)),)])


def test_the_harness_text_runs_and_reports_the_first_disagreement() -> None:
    text = harness_tests([([1, 2], 1), ([3, 1], 1)], [[1], [1]])
    namespace: dict[str, object] = {}
    exec(text, namespace)
    try:
        namespace["check"](lambda xs, k: xs[:k])  # type: ignore[operator]
    except AssertionError as exc:
        summary = read_summary(f"AssertionError: {exc}")
    assert summary is not None
    assert (summary["tried"], summary["bad"], summary["first"], summary["actual"]) == (
        2,
        1,
        1,
        "[3]",
    )
