"""Texts of a scraped page as real pages hold them, through the CLI (single shot).

A link, a heading, a list item or a table cell read for its text holds words (``Beta``),
not a tag-named placeholder (``a-gamma``); a paragraph holds a sentence; an element named
for a price (``#salePrice`` as well as ``.item-cost``) shows an amount with a currency sign
and cents; a link inside a feed's ``<entry>`` is absolute, as feeds give them; a table's
row holds its cells and no text of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import draft_run

LINK_TEXTS = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://guide.example.org/best/").text, "html.parser")
for item in soup.select("div > ol > li > a"):
    print("link:", item.text)
for head in soup.find_all("h2"):
    print("head:", head.get_text())
print("para:", soup.find("p").text)
"""


def test_links_and_headings_hold_words_and_a_paragraph_a_sentence(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "guide.py", LINK_TEXTS)
    out = report["stdout"]
    assert code == 0
    assert len(re.findall(r"^link: [A-Z][a-z]+( [A-Za-z]+)*$", out, re.MULTILINE)) == 2, out
    assert len(re.findall(r"^head: [A-Z][a-z]+( [A-Za-z]+)*$", out, re.MULTILINE)) == 2, out
    assert re.search(r"^para: [A-Z][a-z]+ .+\.$", out, re.MULTILINE), out


PRICE = """\
import requests
from bs4 import BeautifulSoup

page = BeautifulSoup(requests.get("https://shop.example.com/item/42").text, "html.parser")
print("costs " + page.select("#salePrice")[0].text.strip())
"""


def test_a_price_named_in_camel_case_shows_a_currency_sign_and_cents(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "sale.py", PRICE)
    assert code == 0 and re.fullmatch(r"costs \$\d+\.\d\d\n", report["stdout"]), report["stdout"]


ATOM = """\
import requests
from bs4 import BeautifulSoup

feed = BeautifulSoup(requests.get("https://blog.example.net/atom.xml").content, "html.parser")
for entry in feed.find_all("entry"):
    print(entry.title.text, "->", entry.link["href"])
"""


def test_a_link_inside_a_feed_entry_is_absolute(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "atom.py", ATOM)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2
    assert all(re.fullmatch(r"\S.* -> https?://\S+", line) for line in lines), lines


ROWS = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://stats.example.org/table").text, "html.parser")
for row in soup.find("table").find_all("tr"):
    cells = row.find_all("td")
    print(list(row.stripped_strings) == [cell.get_text(strip=True) for cell in cells], len(cells))
"""


def test_a_table_row_holds_only_its_cells(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = draft_run(here, capsys, "rows.py", ROWS)
    assert code == 0 and report["stdout"] == "True 2\nTrue 2\n", report["stdout"]
