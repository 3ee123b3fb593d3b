"""Generated inputs: strategies from type hints or examples, shrunk counterexamples."""

from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st

from automock.errors import InputError
from automock.properties import check_property, strategy_for, type_of_value


def reverse_sort_when_long(xs: list[int]) -> list[int]:
    return sorted(xs, reverse=len(xs) > 2)


def drops_duplicates(xs: list[int]) -> list[int]:
    return sorted(set(xs))


def shuffle_copy(xs: list[str]) -> list[str]:
    out = list(xs)
    random.shuffle(out)
    return out


def test_a_correct_function_passes() -> None:
    result = check_property(shuffle_copy, "permutation", max_examples=50)
    assert result.passed and "held for up to 50" in result.detail


def test_failure_is_shrunk_to_the_minimal_counterexample() -> None:
    result = check_property(reverse_sort_when_long, "sorted", max_examples=200, seed=0)
    assert not result.passed
    # the smallest list of length 3 that is not sorted in reverse: two equal zeros, then 1
    assert result.counterexample == [[0, 0, 1]]
    assert "returned [1, 0, 0]" in result.detail


def test_shrinking_finds_the_duplicate_pair() -> None:
    result = check_property(drops_duplicates, "permutation", max_examples=200, seed=1)
    assert not result.passed
    assert result.counterexample == [[0, 0]]


def test_same_seed_same_counterexample() -> None:
    a = check_property(reverse_sort_when_long, "sorted", seed=5)
    b = check_property(reverse_sort_when_long, "sorted", seed=5)
    assert a == b


def test_exclude_never_tries_the_given_inputs() -> None:
    seen: list[list[int]] = []

    def spy(xs: list[int]) -> list[int]:
        seen.append(list(xs))
        return sorted(xs)

    check_property(spy, "sorted", max_examples=30, exclude=[([],), ([0],)])
    assert seen and [] not in seen and [0] not in seen


def test_strategy_from_type_hints() -> None:
    def f(xs: list[int], k: int) -> list[int]:
        return xs

    strategy = strategy_for(f)
    assert "lists(integers())" in repr(strategy) and "integers()" in repr(strategy)


def test_strategy_from_examples_when_hints_are_missing() -> None:
    def f(xs):  # type: ignore[no-untyped-def]
        return sorted(xs)

    strategy = strategy_for(f, examples=[([3, 1, 2],)])
    assert "lists(integers())" in repr(strategy)
    assert check_property(f, "sorted", examples=[([3, 1, 2],)], max_examples=20).passed


def test_missing_hint_and_examples_says_what_to_add() -> None:
    def f(xs):  # type: ignore[no-untyped-def]
        return xs

    with pytest.raises(InputError, match="add a type hint"):
        check_property(f, "sorted")


def test_explicit_strategy() -> None:
    strategy = st.tuples(st.lists(st.integers(0, 3), min_size=1))
    result = check_property(lambda xs: [max(xs)], "subset", strategy=strategy, max_examples=30)
    assert result.passed


@pytest.mark.parametrize(
    ("value", "hint"),
    [
        ([3, 1], list[int]),
        ([], list[int]),
        ({"a": 1.5}, dict[str, float]),
        ((1, "x"), tuple[int, str]),
        ({1}, set[int]),
        ("s", str),
        (None, type(None)),
    ],
)
def test_type_of_value(value: object, hint: object) -> None:
    assert type_of_value(value) == hint


def test_type_of_mixed_list_is_a_union() -> None:
    assert type_of_value([1, "a"]) == list[int | str]


def _drawn(strategy: object, condition: object) -> bool:
    """Whether Hypothesis finds a drawn argument tuple satisfying ``condition``."""
    from hypothesis import find, settings
    from hypothesis.errors import NoSuchExample

    try:
        find(strategy, condition, settings=settings(max_examples=300, database=None))  # type: ignore[arg-type]
    except NoSuchExample:
        return False
    return True


def test_bare_list_hint_draws_non_empty_lists_of_ints() -> None:
    def max_element(l: list):  # type: ignore[no-untyped-def,type-arg]  # noqa: E741 - HumanEval/35
        return max(l)

    strategy = strategy_for(max_element)
    assert not _drawn(strategy, lambda args: len(args[0]) == 0)
    assert not _drawn(strategy, lambda args: not all(type(x) is int for x in args[0]))
    assert _drawn(strategy, lambda args: len(args[0]) >= 3)


def test_parameterized_list_hint_still_draws_the_empty_list() -> None:
    def total(xs: list[int]) -> int:
        return sum(xs)

    assert _drawn(strategy_for(total), lambda args: args[0] == [])
