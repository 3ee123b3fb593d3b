"""``automock check`` keeps to what a docstring assumes of a number (issue 30): a function
documented for positive counts is not held to its properties on a negative one, where it
returns what nobody asked of it; an input inside what it assumes still catches its bug."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SOURCE = '''
import random


def share_of_sixes(rolls):
    """Assumes rolls a positive int; the share of sixes in that many rolls of a die."""
    rolls = min(rolls, 500)
    sixes = 0
    for _ in range(rolls):
        if random.randint(1, 6) == 6:
            sixes += 1
    return sixes / rolls


def share_of_sixes_scaled(rolls):
    """Assumes rolls a positive int; the share of sixes in that many rolls of a die."""
    rolls = min(rolls, 500)
    sixes = 0
    for _ in range(rolls):
        if random.randint(1, 6) == 6:
            sixes += 1
    return sixes * 6 / rolls  # scaled by the die's sides: the share passes 1
'''


@pytest.fixture
def module(tmp_path: Path) -> Path:
    path = tmp_path / "dice.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def _check(
    capsys: pytest.CaptureFixture[str], module: Path, function: str, *extra: str
) -> tuple[int, dict]:  # type: ignore[type-arg]
    from automock.cli import main

    code = main(["check", f"{module}::{function}", "--examples", "40", "--json", *extra])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("seed", ["0", "1"])
def test_an_input_its_docstring_rules_out_is_no_failure(
    module: Path, capsys: pytest.CaptureFixture[str], seed: str
) -> None:
    code, report = _check(capsys, module, "share_of_sixes", "--seed", seed)
    assert code == 0, report["results"]


def test_a_stated_bound_still_catches_the_bug_inside_the_domain(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(
        capsys,
        module,
        "share_of_sixes_scaled",
        "-p",
        "bounds",
        "--option",
        "low=0",
        "--option",
        "high=1",
    )
    assert code == 1, report["results"]
