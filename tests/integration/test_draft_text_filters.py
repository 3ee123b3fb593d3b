"""Texts the code filters on or converts, drafted so the main path runs, through the CLI.

``if href.startswith("http"):`` (or a comprehension's filter, ``endswith(".pdf")``) keeps
only the values that match: the drafted value does; a negated test or one that skips
(``continue``) is left alone. A CSV cell converted after a string method
(``float(row["Close"].replace(",", ""))``) or read by position (``float(row[2])``) holds a
number's text. An element's text compared with a literal (or a module constant) in a
condition is that literal; a JSON value kept by ``startswith``/``endswith``/``in`` has the
affix; a text kept by ``isdigit()`` is digits; a text whose comma the code turns into a
point is written with a decimal comma; a text split and indexed (``split()[2]``) has that
many pieces, the one read a number when the code converts it; ``len(cells) >= 4`` and
``12 < len(title)`` are met, and so is ``if len(cols) < 5: continue``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import draft_run

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
    code, report = draft_run(here, capsys, "links.py", LINKS)
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
    code, report = draft_run(here, capsys, "rows.py", ROWS)
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
    code, report = draft_run(here, capsys, "temps.py", POSITIONS)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2, report
    assert all(re.fullmatch(r"\S+ \d+ \d+(\.\d)?", line) for line in lines), lines


RATES = """\
import xml.etree.ElementTree as ET

import requests

WANTED = "CHF"
root = ET.fromstring(requests.get("https://rates.example.org/daily.xml").text)
for cur in root.findall(".//Currency"):
    code = cur.find("Code").text
    if code == WANTED:
        print(code, "at", cur.find("Rate").text)
for cur in root.findall(".//Metal"):
    if cur.find("Symbol").text == "XAU":
        print("gold at", cur.find("Price").text)
"""


def test_an_element_text_compared_with_a_literal_or_a_constant_is_that_literal(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "rates.py", RATES)
    out = report["stdout"]
    assert code == 0 and re.search(r"^CHF at \S+$", out, re.MULTILINE), out
    assert re.search(r"^gold at \S+$", out, re.MULTILINE), out


TICKERS = """\
import requests

for t in requests.get("https://api.example.org/v1/tickers").json():
    if t["pair"].startswith("BTC") and "USD" in t["quote"]:
        print(t["pair"], t["quote"])
    if t["icon"].endswith(".png"):
        print("icon", t["icon"])
"""


def test_json_values_kept_by_a_prefix_a_suffix_or_a_part(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "tickers.py", TICKERS)
    out = report["stdout"]
    assert code == 0 and re.search(r"^BTC\S* \S*USD\S*$", out, re.MULTILINE), out
    assert re.search(r"^icon \S+\.png$", out, re.MULTILINE), out


COMMA = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://kurs.example.de/tabelle").text, "html.parser")
for cell in soup.select("td.kurs"):
    print(cell.text, float(cell.text.replace(",", ".")) > 0)
"""


def test_a_text_whose_comma_becomes_a_point_is_a_decimal_comma_number(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "kurs.py", COMMA)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2, report
    assert all(re.fullmatch(r"\d+,\d+ True", line) for line in lines), lines


DIGITS = """\
import csv
import io

import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://league.example.org/table").text, "html.parser")
for cell in soup.select("table td.pts"):
    if cell.get_text().strip().isdigit():
        print("points", int(cell.get_text()) + 0)
text = requests.get("https://league.example.org/goals.csv").text
for row in csv.DictReader(io.StringIO(text)):
    if row["goals"].isdigit():
        print("goals", row["goals"])
"""


def test_a_text_kept_by_isdigit_is_digits(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = draft_run(here, capsys, "league.py", DIGITS)
    out = report["stdout"]
    assert code == 0 and len(re.findall(r"^points \d+$", out, re.MULTILINE)) == 2, out
    assert len(re.findall(r"^goals \d+$", out, re.MULTILINE)) == 2, out


PIECES = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://shop.example.org/p/1").text, "html.parser")
for el in soup.find_all("span", class_="stock"):
    print("left:", int(el.text.split()[2]))
print("maker:", soup.find("h1").text.split(" - ")[1])
"""


def test_a_text_split_and_indexed_has_that_many_pieces(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "stock.py", PIECES)
    out = report["stdout"]
    assert code == 0 and len(re.findall(r"^left: \d+$", out, re.MULTILINE)) == 2, report
    assert re.search(r"^maker: \S+$", out, re.MULTILINE), out


LENGTHS = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://stats.example.org/table").text, "html.parser")
for row in soup.find_all("tr"):
    cells = row.find_all("td")
    if len(cells) >= 4:
        print("row", cells[3].text)
for head in soup.find_all("h3"):
    title = head.get_text(strip=True)
    if 12 < len(title):
        print("long", title)
for row in soup.select("table.wide tr"):
    cols = row.find_all("td")
    if len(cols) < 5:
        continue
    print("wide", cols[1].text)
"""


def test_a_length_the_code_tests_is_met(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = draft_run(here, capsys, "lengths.py", LENGTHS)
    out = report["stdout"]
    assert code == 0 and len(re.findall(r"^row \S+$", out, re.MULTILINE)) >= 2, report
    assert len(re.findall(r"^long .{13,}$", out, re.MULTILINE)) == 2, out
    assert len(re.findall(r"^wide \S+$", out, re.MULTILINE)) == 2, out
