"""Strings of one response that the program requests: drafted as URLs a stub answers.

``for member in ship["crew"]: requests.get(member)`` sends to each string of another
response. The single-shot draft makes each such string a URL on its response's host
(``https://api.example.com/crew/1``) and gives the call a stub answering all of them, also
when the strings are first gathered into a list of the program's own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_json

CREW = """\
import requests

ship = requests.get("https://api.example.com/ships/7").json()
print("ship", ship["name"])
for member in ship["crew"]:
    person = requests.get(member).json()
    print("crew", person["name"])
"""

GATHERED = """\
import requests

links = []
for row in requests.get("https://api.example.com/reports").json()["rows"]:
    if row["detail"] is not None:
        links.append(row["detail"])
for link in links:
    print("report", requests.get(link).json()["title"])
"""


def _run(
    here: Path, capsys: pytest.CaptureFixture[str], name: str, source: str
) -> tuple[int, str, list[dict[str, Any]]]:
    (here / name).write_text(source)
    code, report = run_json(capsys, name, "--repeat", "2", "--draft-rounds", "0")
    plan = json.loads((here / "fixtures" / f"{Path(name).stem}.automock.json").read_text())
    stubs = [e["data"] for e in plan["entries"] if e["strategy"] == "stub_http"]
    return code, report["stdout"], stubs


def test_each_string_a_loop_requests_is_a_url_its_stub_answers(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, stdout, (ship, crew) = _run(here, capsys, "crew.py", CREW)
    assert code == 0 and stdout.count("crew ") == 2
    assert all(url.startswith(crew["url"]) for url in ship["json"]["crew"])
    assert crew["url"].startswith("https://api.example.com/")


def test_strings_gathered_into_a_list_first_are_urls_too(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, stdout, (reports, detail) = _run(here, capsys, "reports.py", GATHERED)
    assert code == 0 and stdout.count("report ") == 2
    assert all(row["detail"].startswith(detail["url"]) for row in reports["json"]["rows"])
