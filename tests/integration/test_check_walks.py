"""``automock check`` on random walks: counts of every parity, and a count ``range()`` reads
is never negative (issue 30).

A walk of an odd number of steps ends an odd distance away, never at 0: observed on odd
counts only, a walk's distance looked bounded below by 1, and a walk of 0 steps was a false
alarm. And a count a function only hands to ``range()`` is at least 0: ``random_walk(-1)``
takes no step, as ``random_walk(0)`` does, an input no caller means, not a bound broken."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, written_module

SOURCE = """
import random


def random_walk(n):
    position = 0
    visited = [position]
    for _ in range(n):
        position += random.choice((-1, 1))
        visited.append(position)
    return visited


def walk_distance(steps):
    x = 0
    for _ in range(steps):
        x += random.choice((-1, 1))
    return abs(x)


def walk_distance_drift(steps):
    x = 0
    for _ in range(steps):
        x += random.choice((-1, 1, 1))
    return abs(x) + 1
"""


module = written_module("walks.py", SOURCE)


@pytest.mark.parametrize("function", ["random_walk", "walk_distance"])
def test_a_correct_walk_raises_no_alarm(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    code, report = check_json(capsys, module, function, 80)
    assert code == 0, report
    assert report["results"], report


def test_a_walk_off_by_one_still_fails(module: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # one more than the distance: never 0, even after 0 steps; whatever was inferred of it,
    # the bound the correct walk showed is what it breaks
    from automock.cli import main

    given = ["--property", "bounds", "--option", "low=0", "--option", "high=steps"]
    code = main(["check", f"{module}::walk_distance_drift", *given, "--examples", "80", "--json"])
    assert code == 1, capsys.readouterr().out
