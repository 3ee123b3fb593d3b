"""Rows read through their header, records named by their URL, values a key's language
names, through the CLI (single shot).

A CSV row read by ``row[col["city"]]``, where ``col`` maps the header's names to their
positions, or by ``row[header.index("city")]``, reads the column ``city``: the drafted
header has it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import draft_run

HEADER_MAP = """\
import csv
import io
from urllib.request import urlopen

with urlopen("https://data.example.org/exports/stations.csv") as res:
    reader = csv.reader(io.StringIO(res.read().decode("utf-8")))
    col = {name: i for i, name in enumerate(next(reader))}
    for row in reader:
        print(row[col["station"]], int(row[col["readings"]]))
"""

HEADER_INDEX = """\
import csv
import requests

lines = requests.get("https://data.example.org/exports/stations.csv").text.splitlines()
reader = csv.reader(lines)
header = next(reader)
for row in reader:
    print(row[header.index("station")], int(row[header.index("readings")]))
"""


@pytest.mark.parametrize("source", [HEADER_MAP, HEADER_INDEX], ids=["map", "index"])
def test_a_row_read_through_its_header_has_the_named_columns(
    here: Path, capsys: pytest.CaptureFixture[str], source: str
) -> None:
    code, report = draft_run(here, capsys, "stations.py", source)
    assert code == 0, report["stderr"]
    lines = report["stdout"].splitlines()
    assert len(lines) == 2
    assert all(line.split()[-1].isdigit() for line in lines)
