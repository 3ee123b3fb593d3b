"""Inputs in the function's domain, sizes scaled to its cost, choices and strings (issue 30).

Each test is a small randomized function of our own, checked through the
Python API the ``check`` command runs (``propose`` then ``check_function``).
"""

from __future__ import annotations

import random

from automock.properties.infer import AppliedProperty
from automock.properties.propose import propose
from automock.properties.suite import check_function


def _given(name: str, **options: object) -> tuple[AppliedProperty, ...]:
    return (AppliedProperty(name, dict(options), "flag"),)


def test_an_error_every_seed_raises_is_a_precondition() -> None:
    def estimate(trials: int) -> float:
        hits = sum(random.random() ** 2 + random.random() ** 2 <= 1 for _ in range(trials))
        return 4 * hits / trials  # trials = 0 divides by zero, whatever is drawn

    report = check_function(estimate, _given("bounds", low=0, high=4), max_examples=40)
    assert report.passed, report.results
    assert "outside its domain" in report.results[0].detail


def test_an_error_only_some_seeds_raise_is_still_a_failure() -> None:
    def pick(xs: list[int]) -> int:
        return xs[random.randint(0, len(xs))]  # one past the end, now and then

    report = check_function(pick, _given("subset"), max_examples=60)
    assert not report.passed
    assert "IndexError" in report.results[0].detail


def test_an_index_beside_a_list_is_drawn_within_its_length() -> None:
    def kth(xs: list[int], k: int) -> int:
        if not 1 <= k <= len(xs):
            raise ValueError("k must be within 1..len(xs)")
        pivot = random.choice(xs)
        return sorted(xs)[k - 1] if pivot is not None else pivot

    report = check_function(kth, _given("subset"), max_examples=60)
    assert report.passed, report.results  # not "rejected every input"


def test_a_hang_on_a_huge_count_scales_the_inputs_down() -> None:
    def roll(times: int) -> list[int]:
        return [random.randint(1, 6) for _ in range(times)]

    report = check_function(
        roll, _given("bounds", low=1, high=6), max_examples=60, call_seconds=0.5
    )
    result = report.results[0]
    assert result.passed and not result.timed_out, result.detail


def test_one_chosen_element_is_inferred_and_checked_as_subset() -> None:
    def pick(big_stream):  # type: ignore[no-untyped-def]
        chosen = None
        for i, item in enumerate(big_stream):
            if random.randint(0, i) == 0:
                chosen = item
        return chosen

    applied, observed = propose(pick, call_seconds=2.0)
    assert [a.property for a in applied] == ["subset", "uniform"]  # a fair choice, too
    seen = [o.args for o in observed.accepted]
    assert check_function(pick, applied, max_examples=40, type_examples=seen).passed


def test_a_shuffled_alphabet_string_is_inferred_unique() -> None:
    def scramble() -> str:
        letters = list("ABCDEFGH")
        random.shuffle(letters)
        return "".join(letters)

    applied, _ = propose(scramble, call_seconds=2.0)
    assert "unique" in {a.property for a in applied}
    assert check_function(scramble, applied, runs=200).passed


def test_a_draw_with_replacement_breaks_unique_over_characters() -> None:
    def scramble() -> str:
        return "".join(random.choices("ABCDEFGH", k=8))

    assert not check_function(scramble, _given("unique"), runs=200).passed


def test_a_die_of_sides_sides_is_bounded_by_its_parameter() -> None:
    def roll(dice, sides):  # type: ignore[no-untyped-def]
        return [random.randint(1, sides) for _ in range(dice)]

    applied, observed = propose(roll, call_seconds=2.0)
    bounds = [a for a in applied if a.property == "bounds"]
    assert bounds and bounds[0].options["high"] == "sides"
    seen = [o.args for o in observed.accepted]
    assert check_function(roll, applied, max_examples=60, type_examples=seen).passed


def test_a_sampler_named_sorted_is_not_checked_as_a_sort() -> None:
    def sorted_reservoir(size, population_list):  # type: ignore[no-untyped-def]
        chosen = list(population_list[:size])
        for seen, item in enumerate(population_list[size:], start=size + 1):
            slot = random.randrange(seen)
            if slot < size:
                chosen.pop(slot)
                chosen.append(item)
        return chosen

    applied, _ = propose(sorted_reservoir, call_seconds=2.0)
    names = {a.property for a in applied}
    assert "sample" in names and not names & {"sorted", "permutation"}
