"""A drafted plan is never wider than the code: no catch-all stub unless a person wrote it."""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

import pytest

from automock.cli import main
from tests.conftest import run_json

PAYMENT = dedent(
    """
    import os
    import requests

    API = "https://api.example.com"


    def charge(url):
        return requests.post(url, json={"amount": 5})


    s = requests.Session()
    s.headers["Authorization"] = "Bearer x"
    s.headers.update({"X-Client": "demo"})
    r = s.get(API + "/items")
    print("items", r.json()["count"])
    print("auth", s.headers.get("Authorization")[:6], s.cookies.get("sid"))
    resp = charge(os.path.join(API.replace("api.", "payments."), "charge"))
    print("charged", resp.status_code)
    """
)


def _catch_all(data: dict[str, object]) -> bool:
    return data.get("method") == "*" or data.get("url") in (".*", "", "^.*$")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    Path("pay.py").write_text(PAYMENT)
    return tmp_path


def test_a_request_to_an_undrafted_url_is_unmocked_not_answered(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = run_json(capsys, "pay.py", "--draft-rounds", "0")
    assert "charged 200" not in report["stdout"]
    assert code == 5, report["stdout"]
    assert "items" in report["stdout"]  # the drafted GET still answers
    plan = json.loads(Path("fixtures/pay.automock.json").read_text())
    stubs = [e for e in plan["entries"] if e["strategy"] == "stub_http"]
    assert stubs and not any(_catch_all(e["data"]) for e in stubs)
    assert all(e["drafted"] is True for e in stubs)
    assert {e["line"] for e in stubs} == {15}  # only the GET: one traceable call site


def test_the_loop_answers_an_observed_request_with_an_exact_stub_a_person_can_review(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "pay.py", "--json"]) == 0  # the drafting loop's default rounds
    assert "charged 200" in json.loads(capsys.readouterr().out)["stdout"]
    plan = json.loads(Path("fixtures/pay.automock.json").read_text())
    stubs = [e for e in plan["entries"] if e["strategy"] == "stub_http"]
    assert not any(_catch_all(e["data"]) for e in stubs)
    (post,) = [e for e in stubs if e["data"]["method"] == "POST"]
    assert post["data"]["url"] == "https://payments.example.com/charge"  # what was sent
    assert post["line"] == 9 and "/data/url" in post["guessed"]  # its call site, to review
    assert (
        post["provenance"]["round"] == 1 and "matched no stub" in post["provenance"]["repairs"][0]
    )


def test_a_header_write_is_not_a_request(project: Path) -> None:
    assert main(["draft", "pay.py"]) == 0
    plan = json.loads(Path("fixtures/pay.automock.json").read_text())
    for entry in plan["entries"]:
        if entry["api"].startswith(("requests.Session.headers", "requests.Session.cookies")):
            assert entry["strategy"] != "stub_http"


def test_a_catch_all_written_by_a_person_is_honoured(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draft", "pay.py", "--draft-rounds", "0"]) == 0  # the POST left undrafted
    path = Path("fixtures/pay.automock.json")
    plan = json.loads(path.read_text())
    plan["entries"].append(
        {
            "line": 8,
            "col": 11,
            "kind": "network",
            "api": "requests.post",
            "strategy": "stub_http",
            "data": {"method": "*", "url": ".*", "match": "regex", "status": 201, "json": {}},
        }
    )
    path.write_text(json.dumps(plan))
    capsys.readouterr()
    assert main(["run", "pay.py", "--json"]) == 0
    assert "charged 201" in json.loads(capsys.readouterr().out)["stdout"]


@pytest.mark.parametrize(
    "data",
    [
        {"method": "*", "url": "https://payments.example.com/charge"},
        {"method": "POST", "url": ".*", "match": "regex"},
        {"method": "POST", "url": "https://", "match": "prefix"},
    ],
)
def test_a_drafted_entry_may_not_be_a_catch_all(
    project: Path, capsys: pytest.CaptureFixture[str], data: dict[str, str]
) -> None:
    assert main(["draft", "pay.py", "--draft-rounds", "0"]) == 0  # the POST left undrafted
    path = Path("fixtures/pay.automock.json")
    plan = json.loads(path.read_text())
    entry = {"line": 8, "col": 11, "kind": "network", "api": "requests.post"}
    plan["entries"].append(
        {**entry, "strategy": "stub_http", "drafted": True, "data": {**data, "json": {}}}
    )
    path.write_text(json.dumps(plan))
    capsys.readouterr()
    assert main(["run", "pay.py"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "entries[" in err and "drafted" in err
