"""``automock check`` on picks by weight whose names say no wheel (issue 30, batch r):
``select_parent(population, fitness_values)`` totals its weights and draws a number up to
the total; it is checked for picking in proportion, as its name could not tell. Before,
only ``subset`` was inferred, and a wheel spun short of its total passed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, written_module

SOURCE = """
import random


def select_parent(population, fitness_values):
    total_fitness = sum(fitness_values)
    pick = random.uniform(0, total_fitness)
    current = 0
    for individual, fitness_value in zip(population, fitness_values):
        current += fitness_value
        if current > pick:
            return individual


def select_parent_short_spin(population, fitness_values):
    total_fitness = sum(fitness_values)
    pick = random.uniform(0, total_fitness * 0.6)
    current = 0
    for individual, fitness_value in zip(population, fitness_values):
        current += fitness_value
        if current > pick:
            return individual


def pick_mate(members, fitness):
    return random.choices(members, weights=fitness, k=1)[0]


def pick_mate_skewed(members, fitness):
    return random.choices(members, weights=[f * f for f in fitness], k=1)[0]


def select_fittest_of_three(population, fitness_values):
    contenders = random.sample(range(len(population)), min(3, len(population)))
    best = max(contenders, key=lambda i: fitness_values[i])
    return population[best]
"""


module = written_module("wheels.py", SOURCE)


def _weighted(report: dict) -> list[dict]:  # type: ignore[type-arg]
    return [p for p in report["properties"] if p["property"] == "proportional"]


@pytest.mark.parametrize("function", ["select_parent", "pick_mate"])
def test_a_wheel_in_the_code_is_checked_for_picking_by_weight(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    code, report = check_json(capsys, module, function, 30, "--runs", "600")
    weighted = _weighted(report)
    assert weighted, report["properties"]
    assert "code:" in weighted[0]["evidence"]
    assert code == 0, report["results"]


@pytest.mark.parametrize("function", ["select_parent_short_spin", "pick_mate_skewed"])
def test_a_wheel_off_its_weights_fails(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    code, report = check_json(capsys, module, function, 30, "--runs", "600")
    assert _weighted(report), report["properties"]
    assert code == 1, report["results"]
    assert any(r["name"] == "proportional" and not r["passed"] for r in report["results"])


def test_a_tournament_is_no_wheel(module: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fittest of three drawn: its fitness is neither totalled nor handed to a draw."""
    code, report = check_json(capsys, module, "select_fittest_of_three", 30, "--runs", "600")
    assert _weighted(report) == [], report["properties"]
    assert code == 0, report["results"]
