"""``automock check`` on genetic-algorithm crossovers: two parents of one tour (issue 30)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, written_module

SOURCE = """
import random

import numpy as np


def order_crossover(p1, p2):
    n = len(p1)
    a, b = sorted(random.sample(range(n + 1), 2))
    child = [None] * n
    child[a:b] = p1[a:b]
    rest = [g for g in p2 if g not in child[a:b]]
    for i in range(n):
        if child[i] is None:
            child[i] = rest.pop(0)
    return np.array(child)


def order_crossover_off(p1, p2):
    n = len(p1)
    a, b = sorted(random.sample(range(n + 1), 2))
    child = [None] * n
    child[a:b] = p1[a:b]
    rest = [g for g in p2 if g not in child[a:b]]
    for i in range(n):
        if child[i] is None and rest:
            child[i] = rest.pop()
    child[a:b] = p1[a : b + 1][: b - a]
    if n > 3:
        child[-1] = child[0]
    return np.array(child)


def one_point_crossover(parent1, parent2):
    cut = random.randint(0, len(parent1))
    return parent1[:cut] + parent2[cut:]
"""


module = written_module("crossover.py", SOURCE)


def test_a_tour_crossover_is_seen_keeping_the_tour_and_passes(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the parents are drawn as one tour in two orders, so its numpy child is seen to be
    # a permutation of the first (unrelated parents would make every child look broken)
    code, report = check_json(capsys, module, "order_crossover")
    assert code == 0, report["results"]
    assert [(p["property"], p["source"]) for p in report["properties"]] == [
        ("permutation", "inferred")
    ]


def test_a_tour_crossover_that_repeats_a_city_is_caught_by_its_name(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "order_crossover_off")
    assert code == 1, report["results"]
    # the child is seen repeating a city, so behaviour cannot say it; the name does
    assert ("permutation", "name") in [(p["property"], p["source"]) for p in report["properties"]]


def test_a_crossover_of_bit_strings_is_not_held_to_a_tour_or_to_order(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "one_point_crossover")
    # its child mixes two parents' genes: each from a parent, none a tour of the first, and
    # as long as a parent (session 22: parents hold a crossover's child to their length)
    assert [p["property"] for p in report["properties"]] == ["subset", "length"]
    assert code == 0, report["results"]
