"""``automock check --property uniform`` on a shuffle that takes its list's length too
(``randomize(arr, n)``): the check hands it the list and its length (issue 30). It used to
call it with the list alone, and every run raised ``TypeError``."""

from __future__ import annotations

from pathlib import Path

import pytest

SOURCE = """
import random


def randomize(arr, n):
    for i in range(n - 1, 0, -1):
        j = random.randint(0, i)
        arr[i], arr[j] = arr[j], arr[i]
    return arr


def randomize_biased(arr, n):
    for i in range(n - 1, 0, -1):
        j = random.randint(0, n - 1)
        arr[i], arr[j] = arr[j], arr[i]
    return arr
"""


@pytest.mark.parametrize(("function", "code"), [("randomize", 0), ("randomize_biased", 1)])
def test_a_shuffle_given_its_length_is_checked_for_uniformity(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, code: int
) -> None:
    from automock.cli import main

    path = tmp_path / "shuffles.py"
    path.write_text(SOURCE, encoding="utf-8")
    got = main(["check", f"{path}::{function}", "--property", "uniform"])
    out = capsys.readouterr().out
    assert got == code, out
    assert "chi2=" in out and "TypeError" not in out, out
