"""The drafting loop acts on what a trial run's program claims: a forged claim changes a stub
body at most, and never crashes automock or widens what the plan lets through.

The program runs in the process that records its observations, so it can write any record
it likes. The ground truth is read from outside: automock's exit code and stderr, and the
plan file it saved.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main

FORGER = """\
import requests
from automock.runtime import observations as seen

data = requests.get("https://api.example.com/x").json()
state = seen._active
if state is not None:  # only in a trial run
    for record in (
        {"kind": "key", "entry": 0, "response": "first", "via": "[]", "at": "", "key": "k"},
        {"kind": "shadowed", "entry": 0, "by": 99},
        {"kind": "index", "entry": 0, "response": -1, "at": "", "wanted": 10**9},
        {"kind": "type", "entry": 0, "response": [1], "at": "/x", "wanted": "dict"},
        {"kind": "selector", "entry": 0, "response": -1, "call": "find", "attrs": {"a": 1}},
        {"kind": "key", "entry": 7, "response": -1, "via": "[]", "at": "", "key": "k"},
        {"kind": "key", "entry": 0, "response": -1, "via": "[]", "at": "", "key": "x" * 9000},
        {"kind": "key", "entry": 0, "response": -1, "via": "[]", "at": "", "key": "url"},
    ):
        state.miss(record)
raise SystemExit(3)
"""


def test_forged_observations_change_a_body_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "forger.py").write_text(FORGER)
    code = main(["run", "forger.py", "--json", "--timeout", "20"])
    out, err = capsys.readouterr()
    assert code == 3, err  # the program's own exit, not an automock crash (70)
    assert "Traceback" not in err
    report = json.loads(out)
    assert report["drafting"]["rounds"][0]["exit_code"] == 3
    plan = json.loads((tmp_path / "fixtures" / "forger.automock.json").read_text())
    assert plan["network"] == "deny" and plan["cassette"] is None
    (stub,) = [e for e in plan["entries"] if e["strategy"] == "stub_http"]
    assert stub["data"]["url"] == "https://api.example.com/x"  # a body key "url", at most
    assert stub["data"]["match"] == "prefix"
    assert len(json.dumps(stub)) < 4000  # nothing of the 9000-character key
