"""``automock check`` on estimates of pi: within ``[0, 4]`` is not enough, they must average
to pi (issue 30). The one-coordinate estimate below stays within the bounds and passed the
checks inferred before ``estimates``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import written_module

SOURCE = """
import random


def estimate_pi(throws):
    throws = min(throws, 2000)  # a cap: the search tries large counts
    hits = 0
    for _ in range(throws):
        x, y = random.random(), random.random()
        if x * x + y * y <= 1:
            hits += 1
    return 4 * hits / throws


def estimate_pi_diagonal(throws):
    throws = min(throws, 2000)
    hits = 0
    for _ in range(throws):
        x = y = random.random()  # one draw for both coordinates: the diagonal only
        if x * x + y * y <= 1:
            hits += 1
    return 4 * hits / throws
"""


module = written_module("estimates.py", SOURCE)


def _check(capsys: pytest.CaptureFixture[str], module: Path, function: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    from automock.cli import main

    argv = ["check", f"{module}::{function}", "--examples", "20", "--runs", "200", "--json"]
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_an_estimate_of_pi_must_average_to_pi(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(capsys, module, "estimate_pi")
    assert {"bounds", "estimates"} <= {p["property"] for p in report["properties"]}
    assert code == 0, report["results"]
    code, report = _check(capsys, module, "estimate_pi_diagonal")
    assert code == 1, report["results"]
    failed = [r for r in report["results"] if not r["passed"]]
    assert [r["name"] for r in failed] == ["estimates"], failed
