"""Page and XML texts shaped as the code's names and joins say, through the CLI (single shot).

Each card of a list holds texts of its own, not its neighbour's; an element or class named
after what it holds (``firstHeading``, ``story-summary``, a sitemap's ``<loc>``) holds a
headline, a sentence, a URL; a day on a page reads as people write it; a link pasted after
a base URL ending in ``/`` is a path without a leading slash; a page has one ``<title>``;
an ElementTree path's prefixes are the namespaces the code maps, read from
``ElementTree(file=urlopen(u))`` as well; a cell's text bound to a name
(``price = row.find("td").text``) holds what that name says.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import draft_run

CARDS = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://shop.example.org/list").text, "html.parser")
for card in soup.find_all("div", class_="card"):
    print(card.find("span", class_="label").text)
"""


def test_each_card_holds_its_own_texts(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = draft_run(here, capsys, "cards.py", CARDS)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2 and lines[0] != lines[1], lines


NAMED = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://wiki.example.org/page").text, "html.parser")
print("head:", soup.find("div", id="firstHeading").text)
print("sum:", soup.select_one("div.story-summary").get_text())
print("day:", soup.find("span", class_="post-date").text)
"""


def test_texts_named_after_what_they_hold(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = draft_run(here, capsys, "named.py", NAMED)
    out = report["stdout"]
    assert code == 0
    assert re.search(r"^head: [A-Z]\w* \w+( \w+)*$", out, re.MULTILINE), out
    assert re.search(r"^sum: [A-Z]\w* .+\.$", out, re.MULTILINE), out
    assert re.search(r"^day: [A-Z][a-z]+ \d{1,2}, \d{4}$", out, re.MULTILINE), out


SITEMAP = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://www.example.net/sitemap.xml").content, "xml")
for loc in soup.find_all("loc"):
    print(loc.text)
"""


def test_a_sitemap_location_is_a_url(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = draft_run(here, capsys, "sitemap.py", SITEMAP)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2, lines
    assert all(re.fullmatch(r"https?://[^\s/]+/\S*", line) for line in lines), lines


JOINED = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://board.example.org/").text, "html.parser")
for a in soup.select("td.story > a"):
    print(a.text, "https://board.example.org/" + a["href"])
for a in soup.select("td.other > a"):
    print(f"see https://board.example.org/{a['href']}")
"""


def test_a_link_after_a_base_ending_in_a_slash_has_no_leading_slash(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "joined.py", JOINED)
    out = report["stdout"]
    assert code == 0 and out.count("https://board.example.org/") == 4, out
    assert "org//" not in out, out
    assert re.search(r"^[A-Z]\w* \w+.* https://board\.example\.org/\S+$", out, re.MULTILINE), out


TITLE = """\
import urllib.request
from lxml import etree

page = urllib.request.urlopen("https://news.example.org/").read().decode()
print(etree.HTML(page).xpath("//title/text()"))
"""


def test_a_page_has_one_title(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = draft_run(here, capsys, "title.py", TITLE)
    assert code == 0 and re.fullmatch(r"\['[^'\n]+'\]\n", report["stdout"]), report["stdout"]
    full = TITLE.replace("//title/text()", "/html/head/title/text()")  # the head's, by its path
    code, report = draft_run(here, capsys, "head.py", full)
    assert code == 0 and re.fullmatch(r"\['[^'\n]+'\]\n", report["stdout"]), report["stdout"]


PREFIXED = """\
from urllib.request import urlopen
import xml.etree.ElementTree as ET

NS = {"r": "http://rates.example.org/2024/rates"}
tree = ET.ElementTree(file=urlopen("https://rates.example.org/daily.xml"))
for rate in tree.getroot().findall(".//r:Rate[@code]", namespaces=NS):
    print(rate.attrib["code"], rate.attrib["value"])
"""


def test_a_prefixed_path_is_read_in_the_namespace_the_code_maps(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "rates.py", PREFIXED)
    assert code == 0 and len(report["stdout"].splitlines()) == 2, report["stdout"]


BOUND = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://shop.example.org/table").text, "html.parser")
for row in soup.select("table.items tr"):
    price = row.find("td").text.strip()
    print("costs", price)
countries = [s.text for s in soup.find_all("span", class_="c")]
print(countries)
"""


def test_a_text_bound_to_a_name_holds_what_the_name_says(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "bound.py", BOUND)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 3, lines
    assert all(re.fullmatch(r"costs \$\d+\.\d\d", x) for x in lines[:2]), lines
    assert re.fullmatch(r"\['[A-Z][a-z]+', '[A-Z][a-z]+'\]", lines[2]), lines


ALL_LINKS = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://docs.example.org/guide/start").text, "html.parser")
for a in soup.find_all("a"):
    print(a.get("href"))
"""
PASTED = ALL_LINKS.replace('a.get("href")', '"https://docs.example.org" + a["href"]')


def test_a_page_links_within_and_outside_unless_the_code_pastes_them(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "links.py", ALL_LINKS)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2, lines
    assert lines[0].startswith("/") and lines[1].startswith("https://docs.example.org/"), lines
    code, report = draft_run(here, capsys, "pasted.py", PASTED)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2 and all(x.count("://") == 1 for x in lines), lines
