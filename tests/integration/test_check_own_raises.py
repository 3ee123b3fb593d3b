"""``automock check`` keeps to the domain a function's own code states (issue 30).

A function that refuses an input with its own ``raise`` of any exception class
(``raise Exception("roll 1 to 6 dice")``, ``raise RuntimeError(...)``) refuses it on
purpose, as one raising ``ValueError`` does: ``roll(0)`` was a false alarm on a correct
dice roller. A parameter the code loops over (``range(n)``) and divides by is a count of
trials, at least 1: ``shares(-1)`` loops zero times and returns ``(-0.0, -0.0)``, which was
held to ``unique`` and to an upper bound of ``n`` learned on positive counts. A tuple of one
fixed length is a record of separate quantities, not a collection of draws: ``unique`` is
not proposed for it (its two shares differ on odd counts only)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import written_module

SOURCE = """
import random


def roll(dice):
    if dice < 1 or dice > 6:
        raise Exception(f"roll 1 to 6 dice, not {dice}")
    return [random.randint(1, 6) for _ in range(dice)]


def shares(n):
    heads = tails = 0
    for _ in range(n):
        if random.randint(0, 1):
            heads += 1
        else:
            tails += 1
    return heads / n, tails / n
"""


module = written_module("draws.py", SOURCE)


def _check(
    capsys: pytest.CaptureFixture[str], module: Path, function: str, seed: str = "0"
) -> tuple[int, str]:
    from automock.cli import main

    code = main(["check", f"{module}::{function}", "--examples", "40", "--seed", seed, "--json"])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("function", ["roll", "shares"])
@pytest.mark.parametrize("seed", ["0", "1"])
def test_an_input_the_code_rules_out_is_no_failure(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, seed: str
) -> None:
    code, out = _check(capsys, module, function, seed)
    assert code == 0, json.loads(out)["results"]
    assert json.loads(out)["results"], "nothing was checked"
