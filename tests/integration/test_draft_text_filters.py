"""Texts the code filters on or converts, drafted so the main path runs, through the CLI.

``if href.startswith("http"):`` (or a comprehension's filter, ``endswith(".pdf")``) keeps
only the values that match: the drafted value does; a negated test or one that skips
(``continue``) is left alone. A CSV cell converted after a string method
(``float(row["Close"].replace(",", ""))``) or read by position (``float(row[2])``) holds a
number's text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_json


def _single(
    here: Path, capsys: pytest.CaptureFixture[str], name: str, source: str
) -> tuple[int, dict[str, Any]]:
    (here / name).write_text(source)
    return run_json(capsys, name, "--repeat", "2", "--draft-rounds", "0")


LINKS = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://news.example.org/").text, "html.parser")
for a in soup.find_all("a"):
    href = a.get("href")
    if href and href.startswith("http"):
        print("out:", href)
papers = [a["href"] for a in soup.select("div.papers a") if a["href"].endswith(".pdf")]
print("papers:", len(papers))
for a in soup.select("ul.nav a"):
    if a["href"].startswith("#"):
        continue
    print("nav:", a["href"])
"""


def test_links_the_code_keeps_by_prefix_or_suffix_are_drafted_so(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _single(here, capsys, "links.py", LINKS)
    out = report["stdout"]
    assert code == 0
    assert len(re.findall(r"^out: https?://\S+$", out, re.MULTILINE)) == 2, out
    assert "papers: 2" in out and len(re.findall(r"^nav: [^#]", out, re.MULTILINE)) == 2, out


ROWS = """\
import csv
import io

import requests

text = requests.get("https://data.example.org/quotes.csv").text
for row in csv.DictReader(io.StringIO(text)):
    if row["Symbol"].startswith("A"):
        print(row["Symbol"], float(row["Close"].replace(",", "")) > 0)
"""


def test_a_csv_filter_and_a_conversion_after_a_string_method(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _single(here, capsys, "rows.py", ROWS)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2, report
    assert all(re.fullmatch(r"A\S* True", line) for line in lines), lines


POSITIONS = """\
import csv

import requests

lines = requests.get("https://data.example.org/temps.csv").text.splitlines()
reader = csv.reader(lines)
next(reader)
for row in reader:
    print(row[0], int(row[1]) + 1, round(float(row[2].strip()), 1))
"""


def test_csv_cells_converted_by_position_hold_numbers(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _single(here, capsys, "temps.py", POSITIONS)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2, report
    assert all(re.fullmatch(r"\S+ \d+ \d+(\.\d)?", line) for line in lines), lines
