"""``automock check`` gives one function the same verdicts whatever was checked before it
in the same process (issue 30): session 15 once saw a verdict change after another check.
Two checks back to back through the CLI's ``main``, then the first again, are compared
with each other and with a run of its own in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SOURCE = """
import random


def deal(cards, k):
    return random.sample(cards, min(k, len(cards)))


def mix(items):
    items = list(items)
    for i in range(len(items)):
        j = random.randint(0, len(items) - 1)  # the naive swap with any index
        items[i], items[j] = items[j], items[i]
    return items
"""


_FLAGS = ["--examples", "20", "--runs", "300", "--json"]


def _check(capsys: pytest.CaptureFixture[str], module: Path, function: str) -> tuple[int, Any]:
    from automock.cli import main

    code = main(["check", f"{module}::{function}", *_FLAGS])
    return code, json.loads(capsys.readouterr().out)


def _verdicts(report: dict[str, Any]) -> list[tuple[str, bool, Any]]:
    """Each property's verdict and counterexample; not its detail, whose count of inputs
    outside the domain depends on the sizes tried, scaled to how long calls took."""
    return [(r["name"], r["passed"], r.get("counterexample")) for r in report["results"]]


def test_a_check_after_another_gives_the_verdicts_of_a_fresh_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "cards.py"
    module.write_text(SOURCE, encoding="utf-8")
    first_code, first = _check(capsys, module, "deal")
    _, between = _check(capsys, module, "mix")  # a shuffle checked in between, by chi-square
    again_code, again = _check(capsys, module, "deal")
    assert "uniform" in {r["name"] for r in between["results"]}
    assert (again_code, _verdicts(again)) == (first_code, _verdicts(first))
    argv = [sys.executable, "-m", "automock", "check", f"{module}::deal"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([*argv, *_FLAGS], capture_output=True, text=True, env=env, check=False)
    assert (done.returncode, _verdicts(json.loads(done.stdout))) == (first_code, _verdicts(first))
