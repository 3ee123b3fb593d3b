"""``automock check`` on draws said to hold no duplicates (issue 30, batch s): "the result
cannot contain duplicates" in a docstring, or ``no_dups`` in a name, is ``unique``, as
"distinct" and "without replacement" already were. Before, a draw that repeats an item
now and then passed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, verdicts, written_module

SOURCE = '''
import random


def draw_numbers(num, low, high):
    """Draw num numbers from low to high. The result cannot contain duplicates."""
    return random.sample(range(low, high + 1), num)


def draw_numbers_repeating(num, low, high):
    """Draw num numbers from low to high. The result cannot contain duplicates."""
    return [random.randint(low, high) for _ in range(num)]


def random_codes_no_dups(count):
    return random.sample(range(100, 1000), count)


def random_codes_no_dups_repeating(count):
    return [random.randrange(100, 110) for _ in range(count)]
'''


module = written_module("dups.py", SOURCE)


@pytest.mark.parametrize(
    ("function", "code"),
    [
        ("draw_numbers", 0),
        ("draw_numbers_repeating", 1),
        ("random_codes_no_dups", 0),
        ("random_codes_no_dups_repeating", 1),
    ],
)
def test_said_without_duplicates_is_held_to_distinct_items(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    got, report = check_json(capsys, module, function, 60)
    assert "unique" in {p["property"] for p in report["properties"]}, report["properties"]
    assert got == code, report["results"]
    if code:
        assert verdicts(report).get("unique") is False, report
