"""``automock check`` holds integers spanning most of 0..255 to a byte's range (issue 30).

A random RGB colour's channels are bytes: seen spanning most of 0..255, they are held to
[0, 255], so a channel drawn one past it (``randint(1, 256)``) fails, where the bounds
learned from its own draws ([1, 256]) passed it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SOURCE = """
import random


def colour():
    return random.randint(0, 255), random.randint(0, 255), random.randint(0, 255)


def shifted_colour():
    return random.randint(1, 256), random.randint(0, 255), random.randint(0, 255)
"""


@pytest.mark.parametrize(("function", "expected"), [("colour", 0), ("shifted_colour", 1)])
def test_channels_spanning_a_byte_are_held_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, expected: int
) -> None:
    from automock.cli import main

    path = tmp_path / "colours.py"
    path.write_text(SOURCE, encoding="utf-8")
    code = main(["check", f"{path}::{function}", "--runs", "500", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == expected, report["results"]
    bounds = [p["options"] for p in report["properties"] if p["property"] == "bounds"]
    assert bounds == [{"low": 0, "high": 255}]
