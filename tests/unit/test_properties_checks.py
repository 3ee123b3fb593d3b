"""Value-level property checks: each property on a true and a false case."""

from __future__ import annotations

import json

import pytest

from automock.errors import InputError
from automock.properties import (
    PROPERTIES,
    canonical_property,
    evaluate,
    idempotent,
    is_sorted,
    permutation_of,
    round_trip,
    sample_without_replacement,
    subset_of,
    unique,
    within_bounds,
)


def test_permutation_holds_for_a_rearrangement() -> None:
    result = permutation_of([3, 1, 2, 1], [1, 1, 2, 3])
    assert result.passed and result.counterexample is None


def test_permutation_names_the_element_with_the_wrong_count() -> None:
    result = permutation_of([1, 1, 3], [1, 2, 3])
    assert not result.passed
    assert result.counterexample["element"] in (1, 2)
    assert "appears" in result.detail


def test_permutation_handles_unhashable_elements() -> None:
    assert permutation_of([[2], [1]], [[1], [2]]).passed
    assert not permutation_of([[2], [2]], [[1], [2]]).passed


def test_permutation_rejects_a_non_sequence() -> None:
    result = permutation_of(None, [1])
    assert not result.passed and "expected a sequence" in result.detail


def test_subset_true_and_false() -> None:
    assert subset_of(["a", "a"], ["a", "b"]).passed
    result = subset_of(["a", "z"], ["a", "b"])
    assert not result.passed
    assert result.counterexample == {"index": 1, "element": "z"}


def test_sample_without_replacement_checks_size_membership_and_reuse() -> None:
    assert sample_without_replacement([2, 0], range(5), k=2).passed
    assert not sample_without_replacement([2, 0, 1], range(5), k=2).passed
    reused = sample_without_replacement([1, 1], [1, 2, 3])
    assert not reused.passed and reused.counterexample["drawn"] == 2
    # an element present twice in the population may be drawn twice
    assert sample_without_replacement([1, 1], [1, 1, 2]).passed
    assert not sample_without_replacement([9], [1, 2]).passed


def test_is_sorted_reports_the_first_out_of_order_pair() -> None:
    assert is_sorted([1, 1, 2]).passed
    assert is_sorted([]).passed
    result = is_sorted([1, 3, 2, 0])
    assert not result.passed
    assert result.counterexample == {"index": 1, "pair": [3, 2]}


def test_is_sorted_reverse_and_strict() -> None:
    assert is_sorted([3, 2, 2], reverse=True).passed
    assert not is_sorted([3, 2, 2], reverse=True, strict=True).passed
    assert not is_sorted([1, 1], strict=True).passed
    assert not is_sorted([1, 2], reverse=True).passed


def test_is_sorted_with_incomparable_elements_fails_cleanly() -> None:
    result = is_sorted([1, "a"])
    assert not result.passed and "do not compare" in result.detail


def test_within_bounds_scalar_and_sequence() -> None:
    assert within_bounds(5, 0, 10).passed
    assert within_bounds([0, 10], 0, 10).passed
    assert not within_bounds([0, 10], 0, 10, inclusive=False).passed
    result = within_bounds([1, 11, 12], 0, 10)
    assert not result.passed and result.counterexample == {"index": 1, "element": 11}
    assert within_bounds([-(10**9)], None, 0).passed


def test_unique_true_and_false() -> None:
    assert unique(["a", "b"]).passed
    result = unique(["a", "b", "a"])
    assert not result.passed and result.counterexample == {"indices": [0, 2], "element": "a"}
    assert not unique(["a", "A"], key=str.lower).passed


def test_idempotent_true_and_false() -> None:
    assert idempotent(str.strip, "  x ").passed
    result = idempotent(lambda s: s + "!", "x")
    assert not result.passed and result.counterexample == "x"


def test_idempotent_reports_an_exception() -> None:
    result = idempotent(lambda v: 1 / v, 0)
    assert not result.passed and "ZeroDivisionError" in result.detail


def test_round_trip_true_and_false() -> None:
    assert round_trip(json.dumps, json.loads, {"a": [1, 2]}).passed
    lossy = round_trip(lambda s: s.lower(), lambda s: s, "Hello")
    assert not lossy.passed and lossy.counterexample == "Hello"


def test_results_serialise_to_json() -> None:
    data = json.loads(is_sorted([2, 1]).to_json())
    assert data["name"] == "sorted" and data["passed"] is False
    assert data["counterexample"]["pair"] == [2, 1]


def test_evaluate_uses_the_mutated_input_of_an_in_place_function() -> None:
    original = [3, 1, 2]
    assert evaluate(list.sort, [original], "sorted").passed
    assert original == [3, 1, 2], "evaluate must call on a copy"
    assert not evaluate(list.reverse, [[1, 2, 3]], "sorted").passed


def test_a_none_return_without_mutation_is_the_output_not_the_input() -> None:
    def forgot_return(xs: list[int]) -> list[int]:
        sorted(xs)  # type: ignore[return-value]  # the bug: no return

    result = evaluate(forgot_return, [[2, 1]], "permutation")
    assert not result.passed
    assert "returned None" in result.detail
    # an unchanged (already sorted) input does not make it look in-place either
    assert not evaluate(forgot_return, [[1, 2]], "sorted").passed


def test_an_in_place_function_declared_none_keeps_an_unchanged_input_as_output() -> None:
    def sort_in_place(xs: list[int]) -> None:
        xs.sort()

    assert evaluate(sort_in_place, [[1, 2]], "sorted").passed  # nothing to change
    assert evaluate(sort_in_place, [[2, 1]], "permutation").passed


def test_an_undeclared_function_is_in_place_on_the_calls_where_it_mutates() -> None:
    def shuffle_in_place(xs):  # type: ignore[no-untyped-def]
        xs.reverse()

    assert evaluate(shuffle_in_place, [[1, 2, 3]], "permutation").passed  # mutated: output
    assert not evaluate(shuffle_in_place, [[]], "permutation").passed  # unchanged: None


def test_evaluate_names_the_call_and_output_on_failure() -> None:
    def broken(xs: list[int]) -> list[int]:
        return xs[1:]

    result = evaluate(broken, [[5, 6]], "permutation")
    assert not result.passed
    assert result.counterexample == [[5, 6]]
    assert "broken([5, 6]) returned [6]" in result.detail


def test_evaluate_turns_an_exception_into_a_failure() -> None:
    def boom(xs: list[int]) -> list[int]:
        raise ValueError("nope")

    result = evaluate(boom, [[1]], "sorted")
    assert not result.passed and "ValueError: nope" in result.detail


def test_evaluate_sample_size_from_a_parameter_name() -> None:
    def draw(pool: list[int], k: int) -> list[int]:
        return pool[: k + 1]

    assert not evaluate(draw, [[1, 2, 3], 1], "sample", {"k": "k"}).passed
    assert evaluate(draw, [[1, 2, 3], 1], "sample").passed  # size unchecked without k


def test_unknown_property_lists_the_valid_ones() -> None:
    with pytest.raises(InputError, match="expected one of permutation"):
        canonical_property("sortedness")
    assert canonical_property("Round-Trip") == "round_trip"
    assert set(PROPERTIES) >= {"permutation", "sorted", "sample", "uniform"}


def test_round_trip_without_inverse_is_an_input_error() -> None:
    with pytest.raises(InputError, match="inverse"):
        evaluate(json.dumps, [1], "round_trip")
