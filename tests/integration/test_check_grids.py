"""``automock check`` on random matrices, a list of rows (issue 30, batch t): ``bounds``
holds of their cells. Before, the check compared each row with the bounds (a list is no
number: a correct matrix failed ``--property bounds``) and inference bounded nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from automock.properties import within_bounds
from tests.conftest import check_json, verdicts, written_module

SOURCE = """
import random


def random_matrix(rows, cols, low, high):
    return [[random.randint(low, high) for _ in range(cols)] for _ in range(rows)]


def random_matrix_past_high(rows, cols, low, high):
    return [[random.randint(low, high + 1) for _ in range(cols)] for _ in range(rows)]


def digit_grid(rows, cols):
    return [[random.randint(0, 9) for _ in range(cols)] for _ in range(rows)]
"""


module = written_module("grids.py", SOURCE)


def test_a_grid_s_cells_are_held_to_the_bounds() -> None:
    assert within_bounds([[0, 9], [3, 4]], 0, 9).passed
    result = within_bounds([[0, 9], [3, 10]], 0, 9)
    assert not result.passed
    assert "output[1][1] = 10 is outside [0, 9]" in result.detail


@pytest.mark.parametrize(
    ("function", "code"), [("random_matrix", 0), ("random_matrix_past_high", 1)]
)
def test_bounds_of_parameters_are_inferred_for_a_grid(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    got, report = check_json(capsys, module, function, 20)
    bounds = [p["options"] for p in report["properties"] if p["property"] == "bounds"]
    if code == 0:
        assert {"low": "low", "high": "high"} in bounds, report["properties"]
    assert got == code, report["results"]
    if code:
        assert verdicts(report).get("bounds") is False, report


def test_bounds_given_for_a_grid_pass_on_a_correct_one(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    got, report = check_json(
        capsys,
        module,
        "digit_grid",
        40,
        "--property",
        "bounds",
        "--option",
        "low=0",
        "--option",
        "high=9",
    )
    assert got == 0, report["results"]


def test_a_grid_s_sides_are_drawn_small(module: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``rows`` and ``cols`` are drawn as sizes (-2..12), as an int beside a list is: before,
    the search asked for matrices of millions of rows, each call ran to its time bound, and
    the inputs were scaled down only then."""
    _, report = check_json(capsys, module, "random_matrix", 20)
    details = " ".join(r["detail"] for r in report["results"])
    assert "ran past" not in details, details
