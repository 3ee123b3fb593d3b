"""The drafting loop through the CLI: a request whose URL the draft could not know.

The program builds each item's URL from an id it read in an earlier response, so the
first draft has no stub for it and the run dies of the unmatched request. The loop gives
the call that sent it a stub for that URL (its body kept), round by round, until the run
is clean; the saved plan says which request was unmatched and where it was sent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from automock.cli import main
from tests.conftest import run_json

TOP = """\
import requests

url = "https://news.example.org/v0/top.json"
ids = requests.get(url).json()
for n in ids[:3]:
    url = "/".join(["https://news.example.org/v0/item", str(n) + ".json"])  # unrendered
    item = requests.get(url).json()
    print("title:", item["title"])
"""


def _report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *flags: str
) -> tuple[int, dict[str, Any]]:
    (tmp_path / "top.py").write_text(TOP)
    return run_json(capsys, "top.py", "--timeout", "20", "--no-save", *flags)


def test_a_request_to_a_url_built_at_run_time_gets_a_stub_at_its_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, report = _report(tmp_path, capsys, "--draft-rounds", "0")
    assert code == 5 and "title:" not in report["stdout"]  # single shot: unmatched request

    code, report = _report(tmp_path, capsys)
    assert code == 0 and report["stdout"].count("title: ") == 3
    rounds = report["drafting"]["rounds"]
    assert rounds[0]["ended"] == "failed" and rounds[-1]["ended"] == "clean"
    said = [why for r in rounds for why in r["repairs"]]
    assert any("matched no stub (sent at top.py:7" in why for why in said)


def test_a_call_whose_url_comes_from_the_command_line_is_stubbed_after_a_trial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "where.py").write_text(
        "import sys\nimport requests\n\n"
        "user = requests.get(sys.argv[1]).json()\nprint('lives in', user['location'])\n"
    )
    url = "https://api.example.org/users/ada"
    argv = ["run", "where.py", "--json", "--timeout", "20", "--no-save"]
    assert main([*argv, "--draft-rounds", "0", "--", url]) == 5  # single shot: denied
    capsys.readouterr()
    assert main([*argv, "--", url]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["stdout"].startswith("lives in ") and report["stdout"] != "lives in \n"
    assert any(url in why for r in report["drafting"]["rounds"] for why in r["repairs"])


RETRIED = """\
import sys

import requests


def fetch(url):
    for attempt in range(3):
        try:
            reply = requests.get(url, timeout=2)
            reply.raise_for_status()
            return reply.json()
        except requests.RequestException:
            print("attempt", attempt, "failed")
    return None


profile = fetch(sys.argv[1])
print("profile" if profile else "no profile", profile)
"""


def test_a_denied_call_turned_stub_serves_the_body_drafted_from_its_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the program catches the refusal and tests the body's truthiness: the pasteable
    # fix's empty object would run clean and take the "no profile" path
    monkeypatch.chdir(tmp_path)
    (tmp_path / "profile.py").write_text(RETRIED)
    argv = ["run", "profile.py", "--json", "--timeout", "20", "--no-save"]
    assert main([*argv, "--", "https://api.example.org/me"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["stdout"].startswith("profile {") and "failed" not in report["stdout"]


def test_a_connection_is_a_client_whatever_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``link = http.client.HTTPSConnection(host)`` binds a client: its ``request`` is drafted
    as a stub in one shot (only names like ``conn`` used to be recognised)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.py").write_text(
        "import http.client\nimport json\n\n"
        "link = http.client.HTTPSConnection('api.example.org')\n"
        "link.request('GET', '/v2/weather?city=Oslo')\n"
        "report = json.loads(link.getresponse().read().decode('utf-8'))\n"
        "print('summary:', report['summary'])\n"
    )
    argv = ["run", "link.py", "--json", "--timeout", "20", "--no-save", "--draft-rounds", "0"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["stdout"].startswith("summary: ") and report["stdout"] != "summary: \n"
