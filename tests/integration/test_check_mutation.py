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
