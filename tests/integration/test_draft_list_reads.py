"""Lists and feeds the code indexes, through the CLI (single shot).

``for i in range(5): feed.entries[i]`` gets five entries, on the feed's own site, with the
full text ``entry.content[0].value`` reads; ``find_all("div", "card")`` (a class given as
the second argument) finds its elements; a copy ``[x for x in els]`` indexed at ``[3]`` gets
four; a text split into a name and read piece by piece (``parts = a.text.split("/")``)
holds the separator; an element selected by an attribute's value (``[@title="buyer-name"]``)
holds a text of that name's kind (a person's full name).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import draft_run

FEED = """\
import feedparser

feed = feedparser.parse("https://videos.example.com/feeds/channel.xml")
for i in range(5):
    print(feed.entries[i].title, feed.entries[i].link)
print(feed.entries[0].content[0].value)
"""


def test_a_feed_indexed_five_times_has_five_entries_on_its_site(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "videos.py", FEED)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 6, lines
    assert all(re.fullmatch(r"\S.* https://videos\.example\.com/\S+", x) for x in lines[:5]), lines
    assert re.fullmatch(r"[A-Z]\w* .+", lines[5]), lines


CLASSES = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://press.example.org/news").text, "html.parser")
for a in soup.find_all("a", "news-title"):
    print(a.text)
for job in soup.find_all("div", class_="job"):
    spans = [s for s in job.find_all("span", class_="info")]
    print(spans[0].text, "/", spans[3].text)
"""


def test_a_class_given_as_second_argument_and_an_indexed_copy(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "press.py", CLASSES)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 4, lines
    assert all(re.fullmatch(r"[A-Z]\w* \w+.*", line) for line in lines[:2]), lines


SPLIT = """\
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://code.example.org/trending").text, "html.parser")
for box in soup.find_all("h2", class_="repo"):
    parts = box.find("a").text.split("/")
    print("owner:", parts[0].strip(), "name:", parts[1].strip())
"""


def test_a_text_split_into_a_name_holds_the_separator(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "trend.py", SPLIT)
    lines = report["stdout"].splitlines()
    assert code == 0 and len(lines) == 2, lines
    assert all(re.fullmatch(r"owner: \S+ name: \S+", line) for line in lines), lines


BUYERS = """\
import requests
from lxml import html

tree = html.fromstring(requests.get("https://market.example.org/page").content)
print(tree.xpath('//div[@title="buyer-name"]/text()'))
"""


def test_an_element_selected_by_an_attribute_value_is_named_by_it(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = draft_run(here, capsys, "buyers.py", BUYERS)
    out = report["stdout"]
    assert code == 0 and re.fullmatch(r"\['[A-Z]\w+ [A-Z]\w+', '[A-Z]\w+ [A-Z]\w+'\]\n", out), out
