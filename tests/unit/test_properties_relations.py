"""Relations observed on every call, and the properties proposed from them (issue 30)."""

from __future__ import annotations

import random

from automock.properties.observe import observe
from automock.properties.propose import propose
from automock.properties.relations import relations


def _names(fn: object) -> set[str]:
    return {r.name for r in relations(observe(fn))}  # type: ignore[arg-type]


def test_an_in_place_shuffle_is_a_permutation_that_varies() -> None:
    def mix(deck):  # type: ignore[no-untyped-def]
        random.shuffle(deck)

    observed = observe(mix)
    assert observed.in_place
    assert {"permutation", "varies"} <= {r.name for r in relations(observed)}


def test_a_sample_keeps_min_k_len_and_never_repeats_a_draw() -> None:
    def pick(pool, k):  # type: ignore[no-untyped-def]
        return random.sample(pool, min(k, len(pool)))

    found = {r.name: r for r in relations(observe(pick))}
    assert "submultiset" in found and found["length_k"].options == {"k": "k"}
    assert "permutation" not in found


def test_a_draw_with_replacement_is_no_sub_multiset() -> None:
    def draw(pool, k):  # type: ignore[no-untyped-def]
        return random.choices(pool, k=k) if pool else []

    names = _names(draw)
    assert "subset" in names and "submultiset" not in names


def test_a_die_with_no_arguments_runs_many_times_and_gets_bounds() -> None:
    def roll() -> int:
        return random.randint(1, 6)

    (bounds,) = [p for p in propose(roll)[0] if p.property == "bounds"]
    assert bounds.options == {"low": 1.0, "high": 6.0}
    assert "over 60 seeds" in bounds.evidence


def test_a_refused_input_is_a_precondition_not_an_observation() -> None:
    def deal(pool, k):  # type: ignore[no-untyped-def]
        if k > len(pool):
            raise ValueError("not enough cards")
        return random.sample(pool, k)

    observed = observe(deal)
    assert any(c.raised == "rejected" for c in observed.calls)
    assert "submultiset" in {r.name for r in relations(observed)}


def test_a_deterministic_function_does_not_vary() -> None:
    def ascending(xs: list[int]) -> list[int]:
        return sorted(xs)

    names = _names(ascending)
    assert "varies" not in names and {"sorted", "permutation"} <= names
