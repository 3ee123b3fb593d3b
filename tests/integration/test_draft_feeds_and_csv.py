"""Scrapers of feeds, CSV files and tables served by their drafted plan, through the CLI.

Our own small programs in the shape of real ones: ``feedparser.parse(url)`` fetches
the feed itself (no ``requests`` call in sight; also with the URL a value of a dict
literal looped over by ``.items()`` and passed to a helper), and a CSV download is read by
``csv.reader`` over its split lines. Each must run clean on its draft and print
values that came from the drafted body, not an empty loop.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_json

FEED = """\
import feedparser
feed = feedparser.parse("https://news.example.org/rss")
for entry in feed.entries:
    print("TITLE:", entry.title, "LINK:", entry.link)
"""

FEEDS_BY_NAME = """\
import feedparser

SOURCES = {"science": "https://papers.example.org/science.rss", "arts": "https://papers.example.org/arts.rss"}

def titles(address):
    return [item["title"] for item in feedparser.parse(address)["items"]]

for section, address in SOURCES.items():
    for title in titles(address):
        print(section.upper(), title)
"""

CSV = """\
import csv
import requests
text = requests.get("https://data.example.org/stations.csv").content.decode("utf-8")
for row in csv.reader(text.splitlines()):
    print("ROW", len(row), row[1])
"""

# an Atom feed read with ElementTree's Clark names: the namespace URI's slashes are not steps
ATOM_NAMESPACED = """\
import requests
import xml.etree.ElementTree as ET
ATOM = "{http://www.w3.org/2005/Atom}"
root = ET.fromstring(requests.get("https://preprints.example.org/api/query?q=bees").text)
for entry in root.findall("{http://www.w3.org/2005/Atom}entry"):
    print("PAPER:", entry.find(ATOM + "title").text)
"""

# a feed's item printed whole, and every link of a page with its attributes: neither says
# what is inside, and real ones always have it (an item's title and link, an a's href)
ITEM_WHOLE = """\
import requests
from bs4 import BeautifulSoup
soup = BeautifulSoup(requests.get("https://radio.example.org/podcast.xml").content, features="xml")
print(soup.find_all("item")[0])
"""

LINKS = """\
import requests
from lxml import etree
root = etree.fromstring(requests.get("https://docs.example.org/").text, etree.HTMLParser())
for anchor in root.iter("a"):
    print(anchor.attrib)
"""


@pytest.mark.parametrize(
    ("name", "source", "printed"),
    [
        ("feed.py", FEED, r"^TITLE: \S.* LINK: https?://\S+$"),
        ("sections.py", FEEDS_BY_NAME, r"^SCIENCE \S.*\n(.*\n)*ARTS \S.*$"),
        ("stations.py", CSV, r"^ROW [2-9] \S+$"),
        ("podcast.py", ITEM_WHOLE, r"^<item><title>[^<]+</title><link>https?://\S+</link>"),
        ("anchors.py", LINKS, r"^\{'href': '[^']+'\}$"),
        ("atom.py", ATOM_NAMESPACED, r"^PAPER: \w+( \w+)+\nPAPER: \w+( \w+)+$"),
    ],
)
def test_single_shot_draft_reaches_the_data(
    here: Path, capsys: pytest.CaptureFixture[str], name: str, source: str, printed: str
) -> None:
    import re

    (here / name).write_text(source)
    code, report = run_json(capsys, name, "--repeat", "2", "--draft-rounds", "0", "--no-save")
    assert code == 0 and report["status"] == "passed" and report["deterministic"]
    assert re.search(printed, report["stdout"], re.M), report["stdout"]


TABLES = """\
import requests
from bs4 import BeautifulSoup
WANTED = ["sort" + "able", "plain" + "rowheaders"]
soup = BeautifulSoup(requests.get("https://wiki.example.org/List").content, "html.parser")
tables = soup.find_all("table", {"class": WANTED})
print("tables:", len(tables) > 0)
"""


def test_loop_adds_a_table_for_a_list_of_classes_the_draft_could_not_read(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "tables.py").write_text(TABLES)
    _, report = run_json(capsys, "tables.py", "--draft-rounds", "0", "--no-save")
    assert report["stdout"] == "tables: False\n"
    code, report = run_json(capsys, "tables.py", "--no-save")
    assert code == 0 and report["stdout"] == "tables: True\n"
