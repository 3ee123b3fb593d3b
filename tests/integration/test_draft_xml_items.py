"""An RSS or Atom document read element by element, and a listing's named fields, through
the CLI (single shot).

An Atom entry's ``<author><name>`` is a person's full name, different from author to author;
an RSS item's ``<pubDate>`` is an RFC 822 date and its ``<link>`` a page on the feed's site;
a listing's ``span.listing-posted`` is a day as pages print it and ``span.listing-location``
a city.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import draft_run

ATOM = """\
import requests
import xml.etree.ElementTree as ET

A = "{http://www.w3.org/2005/Atom}"
root = ET.fromstring(requests.get("https://papers.example.org/api/query?q=x").text)
for entry in root.findall(A + "entry"):
    names = [a.find(A + "name").text for a in entry.findall(A + "author")]
    print("Authors: " + ", ".join(names))
"""


def test_an_atom_author_name_is_a_person(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = draft_run(here, capsys, "atom.py", ATOM)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2, lines
    for line in lines:
        names = re.fullmatch(r"Authors: ([A-Z]\w+ [A-Z]\w+), ([A-Z]\w+ [A-Z]\w+)", line)
        assert names and names[1] != names[2], line


RSS = """\
from urllib.request import urlopen
from bs4 import BeautifulSoup

page = BeautifulSoup(urlopen("https://news.example.com/rss").read(), "xml")
for item in page.find_all("item"):
    print(item.link.text)
    print(item.pubDate.text)
"""


def test_an_rss_item_has_a_dated_link_on_its_site(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "rss.py", RSS)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 4, lines
    assert all(re.fullmatch(r"https://news\.example\.com/\S+", x) for x in lines[::2]), lines
    dated = r"[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT"
    assert all(re.fullmatch(dated, x) for x in lines[1::2]) and lines[1] != lines[3], lines


LISTING = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://jobs.example.org/").text, "html.parser")
for row in soup.find_all("li", class_="listing"):
    print(row.find("span", class_="listing-posted").text.strip())
    print(row.find("span", class_="listing-location").text.strip())
"""


def test_a_listing_date_and_location(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = draft_run(here, capsys, "jobs.py", LISTING)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 4, lines
    assert all(re.fullmatch(r"[A-Z][a-z]+ \d{1,2}, \d{4}", x) for x in lines[::2]), lines
    assert all(re.fullmatch(r"[A-Z][a-z]+", x) for x in lines[1::2]), lines
