"""Paging loops through the CLI: a body with a next-page key is drafted as two pages.

``while data["next_page"]:`` after a first fetch is never entered on a body whose only
page says no next page follows; ``while url:`` with ``url = page.get("next")`` must be
sent the next page's URL to a stub that answers it. The single-shot draft (no trial runs)
serves both: the first page links to the next, the second ends the loop.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_json

PREFETCH = """\
import requests

API = "https://api.example.com/v2/books?page={}"

number = 1
data = requests.get(API.format(number)).json()
while data["next_page"]:
    number += 1
    data = requests.get(API.format(number)).json()
    for book in data["books"]:
        print(book["title"])
"""

FOLLOW = """\
import sys

import requests

url = "https://api.example.com/v2/authors?q={}".format(sys.argv[1])
seen = []
while url:
    reply = requests.get(url)
    for author in reply.json().get("authors"):
        seen.append(author.get("name"))
    url = reply.json().get("next")
print("authors:", len(seen))
"""


def _run(
    here: Path, capsys: pytest.CaptureFixture[str], name: str, source: str, *args: str
) -> tuple[int, dict[str, Any], dict[str, Any]]:
    (here / name).write_text(source)
    code, report = run_json(capsys, name, "--repeat", "2", "--draft-rounds", "0", *args)
    plan = json.loads((here / "fixtures" / f"{Path(name).stem}.automock.json").read_text())
    return code, report, plan


def _sequences(plan: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return [
        e["data"]["sequence"]
        for e in plan["entries"]
        if e["strategy"] == "stub_http" and "sequence" in e["data"]
    ]


def test_a_loop_on_the_next_page_key_is_entered_and_ended(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report, plan = _run(here, capsys, "books.py", PREFETCH)
    assert code == 0 and report["stdout"].strip()  # the loop ran and printed titles
    first, last = _sequences(plan)[0]
    assert first["json"]["next_page"] and last["json"]["next_page"] is None
    assert last["json"]["books"]  # the keys read inside the loop are on every page


def test_a_followed_next_link_is_a_url_the_stub_answers(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report, plan = _run(here, capsys, "authors.py", FOLLOW, "--", "ada")
    assert code == 0 and report["stdout"] == "authors: 4\n"  # two pages of two
    ((first, last),) = _sequences(plan)
    assert first["json"]["next"].startswith("https://api.example.com/v2/authors?q=")
    assert last["json"]["next"] is None


ELSEWHERE = """\
import requests

data = requests.get("https://api.example.com/v2/planets", params={"size": 2}).json()
total, seen = data["count"], 0
while seen < total and data:
    for planet in data["results"]:
        seen += 1
    link = data.get("next")
    data = requests.get(link).json() if link else None
print("planets seen:", seen)
"""


def test_a_next_link_requested_by_another_call_is_the_same_stub_s_next_page(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a key named like a next page is not any string to follow: its URL is the paged stub's
    code, report, plan = _run(here, capsys, "planets.py", ELSEWHERE)
    assert code == 0 and report["stdout"] == "planets seen: 4\n"
    ((first, last),) = _sequences(plan)
    assert first["json"]["next"].startswith("https://api.example.com/v2/planets")
    assert last["json"]["next"] is None
