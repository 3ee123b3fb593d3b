"""``automock check`` keeps to the domain a function's own code states (issue 30).

A function that refuses an input with its own ``raise`` of any exception class
(``raise Exception("roll 1 to 6 dice")``, ``raise RuntimeError(...)``) refuses it on
purpose, as one raising ``ValueError`` does: ``roll(0)`` was a false alarm on a correct
dice roller."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SOURCE = """
import random


def roll(dice):
    if dice < 1 or dice > 6:
        raise Exception(f"roll 1 to 6 dice, not {dice}")
    return [random.randint(1, 6) for _ in range(dice)]

"""


@pytest.fixture
def module(tmp_path: Path) -> Path:
    path = tmp_path / "draws.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def _check(
    capsys: pytest.CaptureFixture[str], module: Path, function: str, seed: str = "0"
) -> tuple[int, str]:
    from automock.cli import main

    code = main(["check", f"{module}::{function}", "--examples", "40", "--seed", seed, "--json"])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("function", ["roll"])
@pytest.mark.parametrize("seed", ["0", "1"])
def test_an_input_the_code_rules_out_is_no_failure(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, seed: str
) -> None:
    code, out = _check(capsys, module, function, seed)
    assert code == 0, json.loads(out)["results"]
    assert json.loads(out)["results"], "nothing was checked"
