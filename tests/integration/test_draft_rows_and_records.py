"""Rows read through their header, records named by their URL, values a key's language
names, through the CLI (single shot).

A CSV row read by ``row[col["city"]]``, where ``col`` maps the header's names to their
positions, or by ``row[header.index("city")]``, reads the column ``city``: the drafted
header has it; a row kept for a cell (``if row[1] == "Norway":``) has it; a row spread into a ``%`` template (``"%s at %s" % tuple(row)``) has a column per
conversion. A ``name`` in a body of people (``/api/people/``, ``/members``) is a first
and a last name. A key in another language is a key too: ``wendu`` (temperature in pinyin)
is a number, ``shidu`` (humidity) written as text a percentage. The lines of a text the
code keeps for holding ``"http"`` hold a link; a text file iterated line by line has lines
of several words. A text split into lines and each line on a tab (or a comma) is a table
whose cells a ``float`` converts. A POST to a well-known API's collection, its body read
whole, answers one record with 201, or 200 when the code compares the status with 200. A body read only as an object (its keys
listed) is a record of what its URL names, not an empty object. A response's text handed
to a class (``Board(await resp.text())``) is followed into its ``__init__``.
"""

from __future__ import annotations

import re
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


PEOPLE = """\
import json
from urllib.request import urlopen

page = json.loads(urlopen("https://directory.example.org/api/people/").read())
for person in page["results"]:
    print(person["name"])
print(json.loads(urlopen("https://directory.example.org/api/members").read()))
"""


def test_a_name_in_a_body_of_people_is_a_first_and_a_last_name(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "people.py", PEOPLE)
    assert code == 0, report["stderr"]
    out = report["stdout"].splitlines()
    assert all(re.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+", line) for line in out[:2])
    assert re.search(r"'name': '[A-Z][a-z]+ [A-Z][a-z]+'", out[2])


PINYIN = """\
import json
from urllib import request

body = request.urlopen("http://wx.example.cn/api/weather/city/1001").read().decode("utf-8")
info = json.loads(body)["data"]
print("humidity: " + info["shidu"])
print("temperature: " + str(info["wendu"]) + "C")
"""


def test_pinyin_weather_keys_are_a_percentage_and_a_number(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "weather.py", PINYIN)
    assert code == 0, report["stderr"]
    assert re.search(r"^humidity: \d+%$", report["stdout"], re.MULTILINE)
    assert re.search(r"^temperature: -?\d+(\.\d+)?C$", report["stdout"], re.MULTILINE)


LINKS = """\
from urllib import request

text = request.urlopen("https://raw.example.org/project/README.md").read().decode("utf-8")
for line in filter(lambda l: "http" in l, text.splitlines()):
    print(line)
"""

LINES = """\
import urllib.request

notes = urllib.request.urlopen("http://files.example.org/notes.txt")
for line in notes:
    print(line.decode().strip())
"""


def test_lines_kept_for_holding_http_hold_a_link(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "links.py", LINKS)
    assert code == 0, report["stderr"]
    assert re.search(r"^.*https?://\S+.*$", report["stdout"], re.MULTILINE)


def test_a_text_file_read_by_line_has_lines_of_several_words(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "notes.py", LINES)
    assert code == 0, report["stderr"]
    lines = report["stdout"].splitlines()
    assert len(lines) >= 2
    assert all(re.fullmatch(r"[A-Za-z]+( [A-Za-z]+){3,}", line) for line in lines)


TABLE = """\
import requests

lines = requests.get("https://files.example.org/data/samples.dat").text.split("\\r\\n")
header = lines[0].split("\\t")
rows = [[float(x) for x in line.split("\\t") if x] for line in lines[1:] if line]
print(len(header), rows[0])
"""


def test_a_text_split_in_lines_then_on_tabs_is_a_table_of_numbers(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "samples.py", TABLE)
    assert code == 0, report["stderr"]
    assert re.fullmatch(r"\d+ \[\d+\.\d+(, \d+\.\d+)+\]\n", report["stdout"])


CREATE = """\
import requests

response = requests.post(
    "https://jsonplaceholder.typicode.com/posts", json={"title": "hello", "userId": 3}
)
print(response.status_code)
print(response.json())
"""


def test_a_post_to_a_collection_answers_one_record_created(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "create.py", CREATE)
    assert code == 0, report["stderr"]
    assert re.fullmatch(r"201\n\{.*'id': \d+.*\}\n", report["stdout"])


def test_a_post_whose_status_is_compared_with_200_answers_200(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = CREATE.replace("print(response.status_code)", "print(response.status_code == 200)")
    code, report = draft_run(here, capsys, "create.py", source)
    assert code == 0, report["stderr"]
    assert re.fullmatch(r"True\n\{.*'id': \d+.*\}\n", report["stdout"])


KEYS = """\
import requests


def show_keys(obj):
    print(obj.keys())


response = requests.get("https://opendata.example.gov/api/v1/dataset/42/")
show_keys(response.json())
"""


def test_a_body_whose_keys_are_listed_has_keys(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "keys.py", KEYS)
    assert code == 0, report["stderr"]
    assert re.fullmatch(r"dict_keys\(\['\w+'(, '\w+')*\]\)\n", report["stdout"])


CLASS = """\
import asyncio
import json

import aiohttp


class Board:
    def __init__(self, raw):
        data = json.loads(raw)
        self.rows = [(d["line"], d["minutes"]) for d in data["departures"]]


async def main():
    async with aiohttp.ClientSession() as session:
        async with session.get("https://transit.example.net/v1/board") as resp:
            board = Board(await resp.text())
    for line, minutes in board.rows:
        print(line, minutes + 1)


asyncio.run(main())
"""


def test_a_text_handed_to_a_class_is_read_as_its_init_reads_it(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "board.py", CLASS)
    assert code == 0, report["stderr"]
    lines = report["stdout"].splitlines()
    assert len(lines) == 2
    assert all(line.split()[-1].isdigit() for line in lines)


KEPT_ROWS = """\
import csv
import requests

text = requests.get("https://data.example.org/daily/report.csv").text
for row in csv.reader(text.splitlines()):
    if row[1] == "Norway":
        print(row[1], int(row[3]))
"""


def test_rows_kept_for_a_cell_literal_hold_it(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "report.py", KEPT_ROWS)
    assert code == 0, report["stderr"]
    assert re.search(r"^Norway \d+$", report["stdout"], re.MULTILINE)


SPREAD = """\
import codecs
import csv
from urllib.request import urlopen

u = urlopen("http://quotes.example.com/d/latest.csv?s=abc")
row = next(csv.reader(codecs.iterdecode(u, "utf-8")))
print("Last: %s (%s / %s) on %s at %s" % tuple(row))
"""


def test_a_row_spread_into_a_template_has_a_column_per_conversion(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "spread.py", SPREAD)
    assert code == 0, report["stderr"]
    assert re.fullmatch(r"Last: \S+ \(\S+ / \S+\) on \S+ at \S+\n", report["stdout"])
