"""``automock check`` varies a count that has a default (issue 30).

``make_code(length=8)`` run at its default only ever shows codes of one size, so a code one
character short is short at every call and consistent with itself. A positional count of
what the function makes (``length``, ``num_dice``, ``num_sides``) is driven like a required
parameter; a count of trials an estimate averages over is left at its default."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, verdicts, written_module

SOURCE = """
import random
import string


def make_code(length=8):
    return "".join(random.choice(string.ascii_uppercase) for _ in range(length))


def make_code_short(length=8):
    return "".join(random.choice(string.ascii_uppercase) for _ in range(length - 1))


def roll_dice(num_dice=2, num_sides=6):
    return [random.randint(1, num_sides) for _ in range(num_dice)]


def roll_dice_extra(num_dice=2, num_sides=6):
    return [random.randint(1, num_sides) for _ in range(num_dice + 1)]


def mean_of_draws(num_samples=200):
    return sum(random.random() for _ in range(num_samples)) / num_samples
"""


module = written_module("codes.py", SOURCE)


@pytest.mark.parametrize(
    ("function", "code", "count"),
    [
        ("make_code", 0, "length"),
        ("make_code_short", 1, "length"),
        ("roll_dice", 0, "num_dice"),
        ("roll_dice_extra", 1, "num_dice"),
    ],
)
def test_a_count_with_a_default_is_varied(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int, count: str
) -> None:
    got, report = check_json(capsys, module, function, 60)
    assert got == code, report
    lengths = [a for a in report["properties"] if a["property"] == "length"]
    assert lengths and lengths[0]["options"] == {"n": count}, report
    passed = verdicts(report)
    assert passed["length"] is (code == 0), report


def test_a_count_of_trials_keeps_its_default(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    got, report = check_json(capsys, module, "mean_of_draws", 60)
    assert got == 0, report
    # run at its default only, as a function of no input is: once under each of 60 seeds
    evidence = [a["evidence"] for a in report["properties"] if a["source"] == "inferred"]
    assert evidence and all("over 60 seeds" in e for e in evidence), report
