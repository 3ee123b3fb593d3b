"""``automock check`` on lists of die rolls whose name says the die (issue 30).

A die's faces are numbered 1 to N: ``N`` from a ``dN`` word (``roll_d8``), 6 from a die
or dice word (``roll(num_dice)``). Observation alone learns the range the code draws, so
a roll of ``randint(1, 9)`` or ``randint(0, 6)`` passed the bounds inferred from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import written_module

SOURCE = """
import random


def roll_d8(count):
    return [random.randint(1, 8) for _ in range(count)]


def roll_d8_past(count):
    return [random.randint(1, 9) for _ in range(count)]


def roll_from_zero(num_dice):
    return [random.randint(0, 6) for _ in range(num_dice)]


def lancar_dado(vezes):
    return [random.randint(1, 6) for _ in range(vezes)]


def lancar_dado_do_zero(vezes):
    return [random.randint(0, 6) for _ in range(vezes)]


def roll_pair_sums(num_dice):
    return [random.randint(1, 6) + random.randint(1, 6) for _ in range(num_dice)]
"""


module = written_module("faces.py", SOURCE)


def _check(capsys: pytest.CaptureFixture[str], module: Path, function: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    from automock.cli import main

    code = main(["check", f"{module}::{function}", "--examples", "30", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_rolls_within_their_faces_pass(module: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _check(capsys, module, "roll_d8")
    assert code == 0, report["results"]


def test_sums_of_two_dice_are_not_held_to_one_die(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, report = _check(capsys, module, "roll_pair_sums")
    stated = [p for p in report["properties"] if "name: a die" in (p.get("evidence") or "")]
    assert not stated, report["properties"]


@pytest.mark.parametrize(("function", "value"), [("roll_d8_past", "9"), ("roll_from_zero", "0")])
def test_a_face_past_the_die_fails(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, value: str
) -> None:
    code, report = _check(capsys, module, function)
    assert code == 1, report["results"]
    assert f"= {value} is outside [1, " in json.dumps(report["results"])


@pytest.mark.parametrize(("function", "expected"), [("lancar_dado", 0), ("lancar_dado_do_zero", 1)])
def test_a_die_named_in_portuguese_has_six_faces(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, expected: int
) -> None:
    """``dado`` is a die in Portuguese, Spanish and Italian (batch m's ``simular_dado``)."""
    code, report = _check(capsys, module, function)
    assert code == expected, report["results"]
    bounds = [p for p in report["properties"] if p["property"] == "bounds"]
    assert [(p["options"]["low"], p["options"]["high"]) for p in bounds] == [(1, 6)]
