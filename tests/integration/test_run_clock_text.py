"""The clock's text forms are frozen too, through the CLI: ``time.ctime()`` and
``time.asctime()`` with no argument (which read the C clock, not ``time.time``) give the
plan's instant on every run, imported either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import draft_run

STAMPS = """\
import time
from time import asctime, ctime

print(time.ctime())
print(ctime())
print(asctime())
print(time.ctime(0.0) == time.asctime(time.localtime(0.0)))
"""


def test_ctime_and_asctime_read_the_frozen_clock(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "stamps.py", STAMPS)
    assert code == 0, report["stderr"]
    assert report["deterministic"] is True
    lines = report["stdout"].splitlines()
    assert lines[:3] == ["Mon Jan  1 00:00:00 2024"] * 3
    assert lines[3] == "True"
