"""``automock check`` on genetic-algorithm mutations of a tour (issue 30)."""

from __future__ import annotations

from pathlib import Path

import pytest

from automock.cli import main
from tests.conftest import check_json, written_module

SOURCE = """
import random


def inversion_mutation(route):
    a, b = sorted(random.sample(range(len(route) + 1), 2))
    route[a:b] = route[a:b][::-1]
    return route


def inversion_mutation_short(route):
    a, b = sorted(random.sample(range(len(route) + 1), 2))
    route[a:b] = route[a + 1:b][::-1]
    return route


def insertion_mutation(tour):
    i, j = random.sample(range(len(tour)), 2)
    city = tour[i]
    tour.insert(j, city)
    if len(tour) > 3:
        del tour[-1]
    return tour


def mutate(route, rate):
    '''Mutate a route by swapping two neighbouring cities, with probability rate.'''
    route = list(route)
    if len(route) > 1 and random.random() < rate:
        i = random.randrange(len(route) - 1)
        route[i], route[i + 1] = route[i + 1], route[i]
    return route


def mutate_repeating(route, rate):
    '''Mutate a route by swapping two neighbouring cities, with probability rate.'''
    route = list(route)
    if len(route) > 1 and random.random() < rate:
        i = random.randrange(len(route) - 1)
        route[i], route[i + 1] = route[i + 1], route[i + 1]
    return route


def mutate_bits(bits, rate):
    '''Mutate by flipping each bit with probability rate.'''
    return [1 - b if random.random() < rate else b for b in bits]


def flip_mutation(bits):
    i = random.randrange(len(bits))
    bits[i] = 1 - bits[i]
    return bits
"""


module = written_module("mutation.py", SOURCE)


def test_an_inversion_mutation_keeps_its_tour_and_passes(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "inversion_mutation")
    assert code == 0, report["results"]
    assert "permutation" in [p["property"] for p in report["properties"]]


@pytest.mark.parametrize("function", ["inversion_mutation_short", "insertion_mutation"])
def test_a_tour_mutation_that_loses_or_repeats_a_city_is_caught_by_its_name(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    # its output is never a tour of its input, so behaviour cannot say it; the name does
    code, report = check_json(capsys, module, function)
    assert ("permutation", "name") in [(p["property"], p["source"]) for p in report["properties"]]
    assert code == 1, report["results"]


def test_a_bit_flip_mutation_is_not_held_to_a_tour(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a mutation whose name says no tour operator: no guess; nothing held on every call
    code = main(["check", f"{module}::flip_mutation", "--examples", "30"])
    assert code == 2
    assert "no property is known for flip_mutation()" in capsys.readouterr().err


@pytest.mark.parametrize(("function", "code"), [("mutate", 0), ("mutate_repeating", 1)])
def test_a_mutation_whose_docstring_says_it_swaps_is_held_to_a_tour(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    """``mutate`` says no operator; "swapping two neighbouring cities" does (batch j's
    ``mutate``, "by inverting a segment"). A swap that copies one city over the other
    only now and then is still a subset of its route on every call."""
    got, report = check_json(capsys, module, function)
    assert "permutation" in [p["property"] for p in report["properties"]], report
    assert got == code, report["results"]


def test_a_mutation_that_flips_bits_is_held_to_no_tour(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", f"{module}::mutate_bits", "--examples", "30"])
    assert code == 2
    assert "no property is known for mutate_bits()" in capsys.readouterr().err
