"""Scrapers of feeds and CSV files served by their drafted plan, through the CLI.

Our own small programs in the shape of real ones: ``feedparser.parse(url)`` fetches
the feed itself (no ``requests`` call in sight), and a CSV download is read by
``csv.reader`` over its split lines. Each must run clean on its draft and print
values that came from the drafted body, not an empty loop.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main

FEED = """\
import feedparser
feed = feedparser.parse("https://news.example.org/rss")
for entry in feed.entries:
    print("TITLE:", entry.title, "LINK:", entry.link)
"""

CSV = """\
import csv
import requests
text = requests.get("https://data.example.org/stations.csv").content.decode("utf-8")
for row in csv.reader(text.splitlines()):
    print("ROW", len(row), row[1])
"""


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("name", "source", "printed"),
    [
        ("feed.py", FEED, r"^TITLE: \S.* LINK: https?://\S+$"),
        ("stations.py", CSV, r"^ROW [2-9] \S+$"),
    ],
)
def test_single_shot_draft_reaches_the_data(
    here: Path, capsys: pytest.CaptureFixture[str], name: str, source: str, printed: str
) -> None:
    import re

    (here / name).write_text(source)
    code = main(["run", name, "--json", "--repeat", "2", "--draft-rounds", "0", "--no-save"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["status"] == "passed" and report["deterministic"]
    assert re.search(printed, report["stdout"], re.M), report["stdout"]
