"""A polling loop that waits for a number is ended by the loop's repair (through the CLI).

The value is converted before it is compared (``float(...) >= 500``), so the run shows
no comparison to copy: the ending response pushes the numbers high, then to zero if the
loop still repeats.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_json

FILLS = """\
import time

import requests

while True:
    depth = float(requests.get("https://tank.example.com/api/v1/level").json()["depth"])
    print("depth:", depth)
    if depth >= 500:
        print("full")
        break
    time.sleep(30)
"""

DRAINS = FILLS.replace("depth >= 500", "depth < 3").replace('"full"', '"empty"')


def _polled(here: Path, capsys: pytest.CaptureFixture[str], source: str) -> dict[str, Any]:
    (here / "tank.py").write_text(source)
    code, report = run_json(capsys, "tank.py", "--repeat", "2", "--timeout", "20")
    assert code == 0, report.get("drafting")
    return report


def test_a_loop_waiting_for_a_number_to_rise_ends_on_a_high_one(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _polled(here, capsys, FILLS)
    assert report["stdout"].endswith("full\n")
    plan = json.loads((here / "fixtures" / "tank.automock.json").read_text())
    (stub,) = [e for e in plan["entries"] if e["strategy"] == "stub_http"]
    first, last = stub["data"]["sequence"]
    assert first["json"]["depth"] < 500 <= last["json"]["depth"]


def test_a_loop_waiting_for_a_number_to_drop_ends_on_zero(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _polled(here, capsys, DRAINS)
    assert report["stdout"].endswith("empty\n")
    rounds = report["drafting"]["rounds"]
    assert [r["ended"] for r in rounds] == ["failed", "failed", "clean"]
