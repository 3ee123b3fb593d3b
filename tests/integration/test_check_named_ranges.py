"""``automock check`` reads what a careful engineer reads besides the function's own name
(issue 30): a range written with a dash in the docstring ("between 1-49") and the name of
the file an estimate lives in (``estimate_pi.py``'s ``estimate``). Each wrong function
below passed the checks inferred before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DRAWS = '''
import random


def draw_six():
    """Six numbers, each between 1-30, in ascending order."""
    return sorted(random.sample(range(1, 31), 6))


def draw_six_past_the_top():
    """Six numbers, each between 1-30, in ascending order."""
    return sorted(random.sample(range(1, 32), 6))  # 31 can come out
'''

ESTIMATES = """
import random


def estimate(throws):
    throws = min(throws, 2000)  # a cap: the search tries large counts
    hits = 0
    for _ in range(throws):
        if random.random() ** 2 + random.random() ** 2 < 1:
            hits += 1
    return 4 * hits / throws


def estimate_diagonal(throws):
    throws = min(throws, 2000)
    hits = 0
    for _ in range(throws):
        x = random.random()
        if x * x + x * x < 1:  # one draw for both coordinates
            hits += 1
    return 4 * hits / throws
"""


def _check(capsys: pytest.CaptureFixture[str], path: Path, function: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    from automock.cli import main

    argv = ["check", f"{path}::{function}", "--examples", "20", "--runs", "200", "--json"]
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_a_range_with_a_dash_in_the_docstring_bounds_the_draw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "draws.py"
    path.write_text(DRAWS, encoding="utf-8")
    code, report = _check(capsys, path, "draw_six")
    bounds = [p for p in report["properties"] if p["property"] == "bounds"]
    assert bounds and bounds[0]["options"]["low"] == 1 and bounds[0]["options"]["high"] == 30
    assert code == 0, report["results"]
    code, report = _check(capsys, path, "draw_six_past_the_top")
    assert code == 1, report["results"]
    assert any(r["name"] == "bounds" and not r["passed"] for r in report["results"])


def test_an_estimate_in_a_file_named_for_pi_must_average_to_pi(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "estimate_pi.py"
    path.write_text(ESTIMATES, encoding="utf-8")
    code, report = _check(capsys, path, "estimate")
    assert {"bounds", "estimates"} <= {p["property"] for p in report["properties"]}
    assert code == 0, report["results"]
    code, report = _check(capsys, path, "estimate_diagonal")
    assert code == 1, report["results"]
    assert any(r["name"] == "estimates" and not r["passed"] for r in report["results"])


def test_an_estimate_in_a_file_named_otherwise_is_not_held_to_pi(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "estimates.py"
    path.write_text(ESTIMATES, encoding="utf-8")
    _, report = _check(capsys, path, "estimate_diagonal")
    assert "estimates" not in {p["property"] for p in report["properties"]}


FRACTIONS = '''
import random


def heads_fraction(flips):
    """Assumes flips a positive int."""
    heads = 0
    for _ in range(min(flips, 1000)):  # a cap: the search tries large counts
        if random.random() < 0.5:
            heads += 1
    return heads / flips


def heads_fraction_one_flip_too_many(flips):
    """Assumes flips a positive int."""
    heads = 0
    for _ in range(min(flips, 1000) + 1):
        if random.random() < 0.5:
            heads += 1
    return heads / flips
'''


def test_a_count_of_hits_over_its_trials_is_a_fraction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "coins.py"
    path.write_text(FRACTIONS, encoding="utf-8")
    code, report = _check(capsys, path, "heads_fraction")
    bounds = [p for p in report["properties"] if p["property"] == "bounds"]
    assert bounds and (bounds[0]["options"]["low"], bounds[0]["options"]["high"]) == (0, 1)
    assert code == 0, report["results"]
    code, report = _check(capsys, path, "heads_fraction_one_flip_too_many")
    assert code == 1, report["results"]
    assert any(r["name"] == "bounds" and not r["passed"] for r in report["results"])
