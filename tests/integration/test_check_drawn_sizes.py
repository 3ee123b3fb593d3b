"""``automock check`` on a draw whose population size is itself drawn (issue 30).

``random.sample(xs, k)`` raising for ``k`` past ``len(xs)`` marks an input outside the
function's domain when the input decides it. When ``k`` is drawn too
(``randint(3, 6)``), the same input is taken under other seeds: the error is a bug on an
input the function accepts, as a tournament drawing its entrants without replacement
instead of with it shows on a small population. A sample whose size is the input's still
refuses a too-large size on purpose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SOURCE = """
import random


def best_of_some(population, fitnesses):
    entrants = random.choices(population, k=random.randint(2, 4))
    return max(entrants, key=lambda m: fitnesses[population.index(m)])


def best_of_some_distinct(population, fitnesses):
    entrants = random.sample(population, k=random.randint(2, 4))
    return max(entrants, key=lambda m: fitnesses[population.index(m)])


def draw(items, k):
    return random.sample(items, k)
"""


@pytest.fixture
def module(tmp_path: Path) -> Path:
    path = tmp_path / "drawn.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def _check(capsys: pytest.CaptureFixture[str], module: Path, function: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    from automock.cli import main

    argv = ["check", f"{module}::{function}", "--examples", "40", "--json"]
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_entrants_drawn_with_replacement_pass(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "best_of_some")
    assert code == 0, report["results"]


def test_an_error_for_a_drawn_population_size_is_a_failure(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "best_of_some_distinct")
    assert code == 1, report["results"]
    assert "Sample larger than population" in json.dumps(report["results"])


def test_a_size_the_input_gives_past_the_list_stays_outside_the_domain(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "draw")
    assert code == 0, report["results"]
