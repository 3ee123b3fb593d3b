"""``automock check`` on dice rollers of no arguments (issue 30): their values must be the
sum of as many fair six-sided dice as the code draws. A roll that adds its first die twice
stays within 2..12 and passed the checks inferred before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import written_module

SOURCE = """
import random


def roll_two_dice():
    first = random.randint(1, 6)
    second = random.randint(1, 6)
    return first + second


def roll_two_dice_twice_the_first():
    first = random.randint(1, 6)
    second = random.randint(1, 6)
    return first + first


def lancer_des():
    de1 = random.randint(1, 6)
    de2 = random.randint(1, 6)
    return de1 + de2


def lancer_des_meme_de():
    de1 = random.randint(1, 6)
    de2 = random.randint(1, 6)
    return de1 + de1


def throw():
    '''Throw two dice and add them up.'''
    return random.randint(1, 6) + random.randint(1, 6)


def throw_short():
    '''Throw two dice and add them up.'''
    return random.randint(1, 6) + random.randint(0, 5)


def roll_d20():
    return random.randint(1, 20)


def roll_d20_odd_faces():
    return random.randint(0, 9) * 2 + 1
"""


module = written_module("dice.py", SOURCE)


def _check(capsys: pytest.CaptureFixture[str], module: Path, function: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    from automock.cli import main

    argv = ["check", f"{module}::{function}", "--examples", "20", "--runs", "300", "--json"]
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_a_roll_of_two_dice_is_the_sum_of_two_fair_dice(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "roll_two_dice")
    fair = [p for p in report["properties"] if p["property"] == "uniform"]
    assert fair, report["properties"]
    assert (fair[0]["options"]["dice"], fair[0]["options"]["faces"]) == (2, 6)
    assert code == 0, report["results"]
    code, report = _check(capsys, module, "roll_two_dice_twice_the_first")
    assert code == 1, report["results"]
    assert any(r["name"] == "uniform" and not r["passed"] for r in report["results"])


def test_a_die_of_twenty_faces_is_held_to_twenty_not_six(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``d20`` in the name is the die's faces: a fair d20 passes, and one that shows only
    its odd faces (within 1..20, so bounds cannot see it) fails."""
    code, report = _check(capsys, module, "roll_d20")
    fair = [p for p in report["properties"] if p["property"] == "uniform"]
    assert [(p["options"]["dice"], p["options"]["faces"]) for p in fair] == [(1, 20)]
    assert code == 0, report["results"]
    code, report = _check(capsys, module, "roll_d20_odd_faces")
    assert code == 1, report["results"]
    assert any(r["name"] == "uniform" and not r["passed"] for r in report["results"])


def test_the_sum_of_dice_model() -> None:
    from automock.properties.dice import sum_distribution

    two = sum_distribution(2, 6)
    assert sorted(two) == list(range(2, 13))
    assert two[7] == pytest.approx(6 / 36) and two[2] == pytest.approx(1 / 36)


@pytest.mark.parametrize(
    ("function", "code"),
    [("lancer_des", 0), ("lancer_des_meme_de", 1), ("throw", 0), ("throw_short", 1)],
)
def test_dice_said_in_french_or_in_the_docstring_are_the_sum_of_fair_dice(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    """``lancer_des`` (batch s: throw the dice, its accent dropped) and a docstring that
    says "dice" name a roll of dice as ``roll_two_dice`` does."""
    got, report = _check(capsys, module, function)
    fair = [p for p in report["properties"] if p["property"] == "uniform"]
    assert [(p["options"]["dice"], p["options"]["faces"]) for p in fair] == [(2, 6)], report
    assert got == code, report["results"]
