"""``automock check`` on dice rollers whose count of dice is a parameter with a default
(issue 30, batch r): ``roll_dice(n=2)`` adding up ``randrange(1, 7)`` in a loop is called
at its defaults, so nothing drives ``n``; its values must be the sum of ``n`` fair dice.
Before, only ``bounds`` with a low of 0 was inferred, and one die too many or too few, or
a five-faced die, passed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, written_module

SOURCE = '''
import random
from random import randrange


def roll_dice(n=2):
    total = 0
    for _ in range(n):
        total += randrange(1, 7)
    return total


def roll_dice_one_too_many(n=2):
    total = 0
    for _ in range(n + 1):
        total += randrange(1, 7)
    return total


def roll_dice_five_faces(n=2):
    total = 0
    for _ in range(n):
        total += randrange(1, 6)
    return total


def throw(times=3, sides=4):
    """Throw a handful of dice and add them up."""
    score = 0
    for _ in range(times):
        score += random.randint(1, sides)
    return score


def throw_one_short(times=3, sides=4):
    """Throw a handful of dice and add them up."""
    score = 0
    for _ in range(times - 1):
        score += random.randint(1, sides)
    return score


def roll_dice_of_twenty(n=2):
    total = 0
    for _ in range(n):
        total += random.randint(1, 20)
    return total


def add_noise(n=3):
    total = 0
    for _ in range(n):
        total += random.randint(1, 6)
    return total
'''


module = written_module("dice_defaults.py", SOURCE)


def _fair(report: dict) -> list[tuple[int, int]]:  # type: ignore[type-arg]
    return [
        (p["options"]["dice"], p["options"]["faces"])
        for p in report["properties"]
        if p["property"] == "uniform" and "dice" in p["options"]
    ]


@pytest.mark.parametrize(("function", "model"), [("roll_dice", (2, 6)), ("throw", (3, 4))])
def test_a_sum_of_dice_at_its_defaults_is_held_to_that_many_fair_dice(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, model: tuple[int, int]
) -> None:
    code, report = check_json(capsys, module, function, 20, "--runs", "400")
    assert _fair(report) == [model], report["properties"]
    assert code == 0, report["results"]


@pytest.mark.parametrize(
    "function", ["roll_dice_one_too_many", "roll_dice_five_faces", "throw_one_short"]
)
def test_a_die_too_many_too_few_or_of_other_faces_fails(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    code, report = check_json(capsys, module, function, 20, "--runs", "400")
    assert _fair(report), report["properties"]
    assert code == 1, report["results"]
    assert any(r["name"] == "uniform" and not r["passed"] for r in report["results"])


@pytest.mark.parametrize("function", ["roll_dice_of_twenty", "add_noise"])
def test_no_model_of_six_faced_dice_where_the_code_or_words_say_otherwise(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    """A d20 in the code is no d6 of the name's; a sum named for no dice is left alone."""
    code, report = check_json(capsys, module, function, 20, "--runs", "400")
    assert _fair(report) == [], report["properties"]
    assert code == 0, report["results"]
