"""The drafting loop through the CLI: a refused request the program catches itself.

A retry loop catches the connection error automock raises for a request no stub serves,
so the run exits 0 having read nothing. The loop counts that run as not clean, gives the
call left denied (its URL came from the command line) a stub for the URL it sent, and
fills the key the program then reads. A scraper that sends an ``href`` read from the
first page as it is gets the drafted (relative) link made absolute on the page's host.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_json

RETRY = """\
import sys
import requests

def fetch(url):
    for attempt in range(3):
        try:
            r = requests.get(url, timeout=2)
            r.raise_for_status()
            return r.json()
        except requests.exceptions.RequestException:
            print("attempt", attempt + 1, "failed")
    return {}

user = fetch(sys.argv[1])
print("name:", user.get("name", "-"))
"""

FOLLOW = """\
import requests
from bs4 import BeautifulSoup

page = BeautifulSoup(requests.get("https://index.example.org/").text, "html.parser")
link = page.find("a", class_="next")["href"]
try:
    second = BeautifulSoup(requests.get(link).text, "html.parser")
except requests.exceptions.ConnectionError:
    second = None
print("title:", second.title.string if second and second.title else "-")
"""


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    return run_json(capsys, argv[0], "--timeout", "20", "--no-save", *argv[1:])


def test_a_refused_request_caught_by_a_retry_loop_is_stubbed_at_the_denied_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "who.py").write_text(RETRY)
    url = "https://people.example.org/api/users/7"
    code, report = _run(capsys, ["who.py", "--draft-rounds", "0", "--", url])
    assert code == 0 and "name: -" in report["stdout"]  # single shot: caught, nothing read

    code, report = _run(capsys, ["who.py", "--", url])
    assert code == 0 and "attempt" not in report["stdout"]
    assert "name: " in report["stdout"] and "name: -" not in report["stdout"]
    rounds = report["drafting"]["rounds"]
    assert rounds[0]["ended"] == "missed reads"
    said = [why for r in rounds for why in r["repairs"]]
    assert any(url in why and "the call left denied" in why for why in said)


def test_a_relative_link_the_program_requests_as_it_is_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "follow.py").write_text(FOLLOW)
    code, report = _run(capsys, ["follow.py"])
    assert code == 0 and report["stdout"].startswith("title: ")
    assert report["stdout"] != "title: -\n"
    said = [why for r in report["drafting"]["rounds"] for why in r["repairs"]]
    assert any("made https://index.example.org/" in why for why in said)
