"""Values drafted by the words a person uses for a key, and by the operators the code
applies to them, through the CLI (single shot unless said).

A ``rating`` is a rating in the thousands, ``wins`` a count, ``eye_color`` a colour word,
``address`` a number and a street, ``purpose`` a sentence, ``home_city`` a city,
``first_launch`` a date; a field searched for a literal (``"mk2" in c["model_id"]``) is
text; ``data[str(STORE_ID)]`` of a constant id is a key of the body. A value formatted
with ``%d`` is an integer; one added to a text chain (``str(a) + "°" + b``) is text.
``for i in range(5): items[i]`` needs five items, and ``for a, b, c, d in
csv.reader(...)`` four columns. A body printed whole from an ``api.`` host is JSON; a CSV
saved to a file and read back through a handle (``with open(p) as f:
csv.DictReader(f)``) has the columns read, and so does one read through
``codecs.iterdecode(urlopen(u), "utf-8")``. In the loop, a text body the code decodes as
JSON behind a helper becomes JSON.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import draft_run

PLAYER = """\
import requests

player = requests.get("https://games.example.net/v3/players/ada").json()
print("rating:", player["rating"])
print("wins:", player["wins"])
print("eyes:", player["eye_color"])
print("lives at:", player["address"])
print("home:", player["home_city"])
print("purpose:", player["purpose"])
"""


def test_values_take_the_shape_their_key_names(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "player.py", PLAYER)
    out = report["stdout"]
    assert code == 0
    assert re.search(r"^rating: \d{4}$", out, re.MULTILINE)
    assert re.search(r"^wins: \d+$", out, re.MULTILINE)
    assert re.search(r"^eyes: [a-z]+$", out, re.MULTILINE)
    assert re.search(r"^lives at: \d+ [A-Z][a-z]+ [A-Z][a-z]+$", out, re.MULTILINE)
    assert re.search(r"^home: [A-Z][a-z]+$", out, re.MULTILINE)
    assert re.search(r"^purpose: [A-Z][a-z]+( [a-z]+){3,}.*\.$", out, re.MULTILINE)


FORMATS = """\
import requests

shelf = requests.get("https://stock.example.net/v1/shelves/7").json()
print("%d in stock" % shelf["stock"])
print(str(shelf["height"]) + " " + shelf["heightUnit"] + " high")
"""


def test_a_percent_d_value_is_an_integer_and_a_text_chain_adds_text(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "shelf.py", FORMATS)
    assert code == 0, report["stderr"]
    assert re.search(r"^\d+ in stock$", report["stdout"], re.MULTILINE)


RANGE = """\
import requests

forecast = requests.get("https://weather.example.net/v2/forecast").json()
for i in range(5):
    print(forecast["days"][i]["summary"])
"""


def test_a_list_indexed_by_a_range_loop_has_that_many_items(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "days.py", RANGE)
    assert code == 0, report["stderr"]
    assert len(report["stdout"].splitlines()) == 5


API_TEXT = """\
import requests

print(requests.get("https://api.example.org/v1/widgets").text)
"""


def test_a_body_printed_whole_from_an_api_host_is_json(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "widgets.py", API_TEXT)
    assert code == 0
    json.loads(report["stdout"])


HIDDEN_DECODE = """\
import json
import urllib.request


class Board:
    def __init__(self, raw):
        self.total = json.loads(raw)["total"]


def fetch(url):
    with urllib.request.urlopen(url) as reply:
        return reply.read().decode()


board = Board(fetch("https://notices.example.net/board"))
print("notices:", board.total)
"""


def test_the_loop_makes_a_text_body_decoded_as_json_json(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "board.py", HIDDEN_DECODE, "--draft-rounds", "3")
    assert code == 0, report["stderr"]
    assert re.search(r"^notices: \d+$", report["stdout"], re.MULTILINE)


SAVED_CSV = """\
import csv

import requests

reply = requests.get("https://data.example.org/exports/rainfall.csv")
with open("rainfall.csv", "wb") as out:
    out.write(reply.content)
with open("rainfall.csv") as handle:
    rows = list(csv.DictReader(handle))
total = sum(float(row["Rain mm"]) for row in rows)
print("mean rain:", round(total / len(rows), 1))
"""


def test_a_csv_saved_then_read_through_a_handle_has_the_columns_read(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "rain.py", SAVED_CSV)
    assert code == 0, report["stderr"]
    assert re.search(r"^mean rain: \d+\.\d$", report["stdout"], re.MULTILINE)


MEMBER = """\
import requests

for craft in requests.get("https://fleet.example.net/v4/crafts").json():
    if "mk2" in craft["model_id"]:
        print(craft["model_id"], craft["first_launch"])
"""


def test_a_field_searched_for_a_literal_is_text_and_a_launch_a_date(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "fleet.py", MEMBER)
    assert code == 0, report["stderr"]
    assert re.search(r"^\S*mk2\S* \d{4}-\d\d-\d\d", report["stdout"], re.MULTILINE)


ITERDECODED = """\
import codecs
import csv
from urllib.request import urlopen

reply = urlopen("https://quotes.example.net/export/latest.csv")
for row in csv.DictReader(codecs.iterdecode(reply, "utf-8")):
    print(row["symbol"], "%.2f" % float(row["close"]))
"""


def test_a_response_decoded_line_by_line_for_csv_is_a_csv_body(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "quotes.py", ITERDECODED)
    assert code == 0, report["stderr"]
    assert re.search(r"^\S+ \d+\.\d\d$", report["stdout"], re.MULTILINE)


KEYED_BY_ID = """\
import requests

STORE_ID = 8812
data = requests.get(f"https://shops.example.net/lookup?ids={STORE_ID}").json()
if str(STORE_ID) in data:
    print("store:", data[str(STORE_ID)]["title"])
else:
    print("no such store")
"""


def test_a_record_looked_up_by_the_text_of_a_constant_id_is_there(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "store.py", KEYED_BY_ID)
    assert code == 0, report["stderr"]
    assert report["stdout"].startswith("store: ")


UNPACKED_ROWS = """\
import csv
import io

import requests

text = requests.get("https://prices.example.net/daily.csv").text
for symbol, price, change, volume in csv.reader(io.StringIO(text)):
    print(symbol, price, change, volume)
"""


def test_a_csv_row_unpacked_into_names_has_that_many_columns(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "prices.py", UNPACKED_ROWS)
    assert code == 0, report["stderr"]
    assert all(len(line.split()) == 4 for line in report["stdout"].splitlines())
