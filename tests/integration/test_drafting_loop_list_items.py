"""The drafting loop reshapes every item of a list at once, not one item a round (issue 24).

Items reach the code through a generator (``yield item`` from the pages it fetches), which
the draft does not follow, so they were drafted as strings; the run used the first as an
object. The repair reshaped only that item; the next round failed on the second, and the
rounds ran out. A list's items are alike: all are reshaped in the same round, and the loop
ends clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_json

PROGRAM = """\
import requests


def members():
    body = requests.get("https://club.example.org/api/members").json()
    for member in body["members"]:
        yield member


for m in members():
    print("member", m["nickname"])
"""


def test_items_used_as_objects_are_all_reshaped_in_one_round(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "club.py").write_text(PROGRAM)
    code, report = run_json(capsys, "club.py", "--repeat", "2")
    assert code == 0, report.get("detail")
    lines = report["stdout"].splitlines()
    assert len(lines) >= 2 and all(line.startswith("member ") for line in lines)
