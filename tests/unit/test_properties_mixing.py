"""Which permutations are checked for uniformity, and which bounds are seen (issue 30).

A permutation that varies with the seed is not always meant to be uniform: a
cyclic shuffle (Sattolo's algorithm) never leaves an element in place, a
genetic-algorithm mutation swaps two elements or scrambles a stretch and leaves
most in place. Only a permutation that mixes like a uniform shuffle (about one
element in place per call) is checked with ``uniform``; the others get
``permutation`` and pass. Each function here is our own.
"""

from __future__ import annotations

import random

from automock.properties.propose import propose
from automock.properties.suite import check_function


def _check(fn):  # type: ignore[no-untyped-def]
    applied, observed = propose(fn, call_seconds=2.0)
    seen = [o.args for o in observed.accepted]
    report = check_function(fn, applied, max_examples=40, runs=800, type_examples=seen)
    return {a.property for a in applied}, report


def cycle_items(items):  # type: ignore[no-untyped-def]
    for i in range(len(items) - 1, 0, -1):
        j = random.randrange(i)  # never i: one cycle through every element
        items[i], items[j] = items[j], items[i]


def swap_genes(genes):  # type: ignore[no-untyped-def]
    child = list(genes)
    if len(child) > 1:
        i, j = random.sample(range(len(child)), 2)
        child[i], child[j] = child[j], child[i]
    return child


def scramble_mutation(genes):  # type: ignore[no-untyped-def]
    child = list(genes)
    if len(child) > 1:
        a, b = sorted(random.sample(range(len(child)), 2))
        stretch = child[a : b + 1]
        random.shuffle(stretch)
        child[a : b + 1] = stretch
    return child


def mix(deck):  # type: ignore[no-untyped-def]
    for i in range(len(deck) - 1, 0, -1):
        j = random.randint(0, i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_a_cyclic_shuffle_is_a_permutation_not_a_uniform_one() -> None:
    found, report = _check(cycle_items)
    assert found == {"permutation"}
    assert report.passed, report.results


def test_a_mutation_that_swaps_two_is_a_permutation_not_a_uniform_one() -> None:
    found, report = _check(swap_genes)
    assert found == {"permutation"}
    assert report.passed, report.results


def test_a_mutation_that_scrambles_a_stretch_is_not_checked_as_uniform() -> None:
    found, report = _check(scramble_mutation)
    assert "uniform" not in found
    assert report.passed, report.results


def test_a_shuffle_that_mixes_is_still_checked_as_uniform() -> None:
    found, report = _check(mix)
    assert found == {"permutation", "uniform"}
    assert report.passed, report.results


def test_a_shuffle_named_for_sattolo_is_not_checked_as_uniform() -> None:
    def shuffle_sattolo(items):  # type: ignore[no-untyped-def]
        cycle_items(items)

    found, report = _check(shuffle_sattolo)
    assert "uniform" not in found and "permutation" in found
    assert report.passed, report.results


def test_a_draw_from_nothing_given_is_not_checked_as_a_sample() -> None:
    def draw_numbers():  # type: ignore[no-untyped-def]
        return sorted(random.sample(range(1, 46), 6))

    found, report = _check(draw_numbers)
    assert "sample" not in found and {"sorted", "unique", "bounds"} <= found
    assert report.passed, report.results


def test_an_estimate_seen_once_at_its_lowest_is_bounded_below_by_zero_only() -> None:
    def estimate_area(num_points):  # type: ignore[no-untyped-def]
        hits = 0
        for _ in range(num_points):
            x, y = random.uniform(-1, 1), random.uniform(-1, 1)
            hits += x * x + y * y <= 1
        return hits / num_points * 4  # the lowest seen on small inputs: 2.4, once

    applied, _ = propose(estimate_area, call_seconds=2.0)
    (bounds,) = [a for a in applied if a.property == "bounds"]
    assert bounds.options["low"] == 0
    assert bounds.options.get("high") in (None, 4.0)
    _, report = _check(estimate_area)
    assert report.passed, report.results


def pick_one(items):  # type: ignore[no-untyped-def]
    chosen = None
    for seen, item in enumerate(items, start=1):
        if random.randrange(seen) == 0:
            chosen = item
    return chosen


def pick_one_biased(items):  # type: ignore[no-untyped-def]
    chosen = None
    for seen, item in enumerate(items, start=1):
        if random.randrange(seen + 1) == 0 or chosen is None:  # later items lose out
            chosen = item
    return chosen


def test_a_fair_choice_is_checked_for_fairness_and_passes() -> None:
    found, report = _check(pick_one)
    assert {"subset", "uniform"} <= found
    assert report.passed, report.results


def test_a_biased_choice_is_caught_by_inference() -> None:
    found, report = _check(pick_one_biased)
    assert "uniform" in found
    assert not report.passed
    (uniform,) = [r for r in report.results if r.name == "uniform"]
    assert "not uniform" in uniform.detail


def test_a_choice_named_weighted_is_not_checked_for_fairness() -> None:
    def roulette_pick(items):  # type: ignore[no-untyped-def]
        return pick_one_biased(items)

    found, report = _check(roulette_pick)
    assert "uniform" not in found
    assert report.passed, report.results
