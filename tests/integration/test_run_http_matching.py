"""``automock run`` names the plan entry that served each request, and an unmatched
request's message lists the nearest stubs and why each missed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main

API = "https://api.example.com"
PROGRAM = f"""\
import json, urllib.request

for city in ("Oslo", "Rome"):
    with urllib.request.urlopen("{API}/v1/weather?units=si&city=" + city) as resp:
        print(city, json.load(resp)["temp"])
urllib.request.urlopen("{API}/v2/forecast?city=Oslo")
"""


def _plan(tmp_path: Path) -> Path:
    def entry(line: int, **data: object) -> dict[str, object]:
        return {
            "line": line,
            "kind": "network",
            "api": "urllib.request.urlopen",
            "strategy": "stub_http",
            "data": {"method": "GET", "url": f"{API}/v1/weather", **data},
        }

    plan = {
        "automock": 1,
        "entries": [
            entry(4, json={"temp": 20}),
            entry(4, query={"city": "Oslo"}, json={"temp": 4}),
        ],
    }
    path = tmp_path / "weather.automock.json"
    path.write_text(json.dumps(plan))
    return path


def test_report_names_the_serving_entry_and_the_nearest_stubs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "weather.py"
    program.write_text(PROGRAM)

    code = main(["run", str(program), "--plan", str(_plan(tmp_path))])

    out, err = capsys.readouterr()
    assert code == 5
    assert out == "Oslo 4\nRome 20\n"
    served = f"{API}/v1/weather?units=si&city=Oslo → stub #2 (GET prefix {API}/v1/weather, "
    assert served + "query city=Oslo; plan entries[1], line 4)" in err
    assert f"city=Rome → stub #1 (GET prefix {API}/v1/weather; plan entries[0], line 4)" in err
    # the program's traceback carries the refusal: the nearest stubs, why each missed
    assert f"unmocked HTTP request GET {API}/v2/forecast?city=Oslo via http.client" in err
    assert (
        "nearest: stub #1 (GET prefix https://api.example.com/v1/weather; plan entries[0], "
        "line 4): path /v2/forecast not under /v1/weather; stub #2 (GET prefix" in err
    )
    fix = {
        "method": "GET",
        "url": f"{API}/v2/forecast",
        "match": "prefix",
        "query": {"city": "Oslo"},
    }
    assert "fix: add a stub_http entry to the plan: " + json.dumps(fix)[:-1] in err
    assert (
        '"json": {}}; nearest stub #1 (GET prefix https://api.example.com/v1/weather; plan '
        "entries[0], line 4): path /v2/forecast not under /v1/weather\n" in err
    )


def test_served_by_from_the_child_is_type_checked_by_the_judge() -> None:
    from automock.sandbox.judge import valid_report

    def done(served_by: object) -> dict[str, object]:
        access = {"kind": "network", "api": "requests", "target": "GET x", "mocked": True}
        return {
            "phase": "done",
            "exit_code": 0,
            "status": "passed",
            "accesses": [{**access, "fix": "", "served_by": served_by}],
        }

    assert valid_report(done("stub #1 (GET prefix https://x)")) is not None
    assert valid_report(done(1)) is None
    assert valid_report(done(["stub #1"])) is None
