"""The drafting loop on numbers a program treats as text, read on every page of a paged API.

``count.replace(",", "")`` on a drafted number fails (``'int' object has no attribute
'replace'``); the loop redrafts it as the number's text. The body is paged (a ``next``
link, :mod:`automock.drafting.paging`), and the code reads every page alike, so one
round repairs both pages, not one page per round. A body indexed by position
(``members[i]`` over ``range(len(members))``) after passing through a dict the draft
cannot follow was drafted as an object: the loop makes it a list of that object.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_json

STOCK = """\
import requests

url = "https://api.example.com/v1/shelves"
counts = []
while url:
    page = requests.get(url).json()
    for shelf in page["shelves"]:
        counts.append({"shelf": shelf["name"], "units": shelf["stock_count"]})
    url = page["next"]
print("units", sum(int(c["units"].replace(",", "")) for c in counts) > 0)
"""


def test_a_number_used_as_text_becomes_text_on_every_page(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "stock.py").write_text(STOCK)
    code, report = run_json(capsys, "stock.py", "--repeat", "2", "--timeout", "20")
    assert code == 0 and report["stdout"] == "units True\n"
    rounds = report["drafting"]["rounds"]
    assert [r["ended"] for r in rounds] == ["failed", "clean"]
    assert any("as text (.replace)" in m for m in rounds[0]["missed"])
    plan = json.loads((here / "fixtures" / "stock.automock.json").read_text())
    (stub,) = [e for e in plan["entries"] if e["strategy"] == "stub_http"]
    for page in stub["data"]["sequence"]:
        assert all(isinstance(s["stock_count"], str) for s in page["json"]["shelves"])


WRAPPED = """\
import requests


def fetch(team):
    reply = requests.get(f"https://api.example.com/teams/{team}/roster")
    return {"status": reply.status_code, "payload": reply.json()}


members = fetch("blue")["payload"]
for i in range(len(members)):
    print("member", members[i]["login"])
"""


def test_an_object_indexed_by_position_becomes_a_list_of_it(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "team.py").write_text(WRAPPED)
    code, report = run_json(capsys, "team.py", "--repeat", "2", "--timeout", "20")
    assert code == 0 and report["stdout"].count("member ") == 2
    first = report["drafting"]["rounds"][0]
    assert first["exception"] == "KeyError: 0"
    assert any("(dict) as a list" in m for m in first["missed"])
