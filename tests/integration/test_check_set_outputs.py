"""``automock check`` on functions that return a set (issue 30): its numbers are bounded
as a list's are. Before, a set was no sequence to the relations and no numbers to the
docstring's range, so a draw of ``count`` numbers "between 1 and ``top``" one past its
top passed, and a set of ids under ``high`` was held to nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_json, written_module

SOURCE = '''
import random


def lucky_numbers(count, top):
    """Return count distinct numbers between 1 and top."""
    return set(random.sample(range(1, top + 1), count))


def lucky_numbers_past_top(count, top):
    """Return count distinct numbers between 1 and top."""
    return set(random.sample(range(1, top + 2), count))


def ids_between(low, high):
    return {random.randint(low, high) for _ in range(3)}
'''


module = written_module("sets.py", SOURCE)


def _bounds(report: dict) -> list[dict]:  # type: ignore[type-arg]
    return [p["options"] for p in report["properties"] if p["property"] == "bounds"]


@pytest.mark.parametrize(
    ("function", "code"), [("lucky_numbers", 0), ("lucky_numbers_past_top", 1)]
)
def test_a_docstring_range_bounds_a_set_of_numbers(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    got, report = check_json(capsys, module, function, 20)
    assert {"low": 1, "high": "top"} in _bounds(report), report["properties"]
    assert got == code, report["results"]


def test_parameter_bounds_are_inferred_for_a_set(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    got, report = check_json(capsys, module, "ids_between", 20)
    assert {"low": "low", "high": "high"} in _bounds(report), report["properties"]
    assert got == 0, report["results"]
