"""The drafting loop through the CLI: a text body for a call whose URL the draft could not know.

Our own small programs: a feed URL handed to ``feedparser.parse`` through a helper's
parameter, and a crawler whose fetch method takes the page's URL as a parameter and
follows the page's own links. The loop answers each request the run shows; the stub's
body is the feed or the page the code reads (drafted before the URL was known), not an
empty JSON object, so the feed's titles print and the crawl reaches a second page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_json

FEEDS = """\
import feedparser

def entries_of(address):
    return feedparser.parse(address)["entries"]

sources = {}
for label in ("world", "tech"):
    sources[label] = "https://feeds.example.org/" + label + ".xml?lang=en&amp;region=eu"

for label, address in sources.items():
    for entry in entries_of(address):
        print(label, "|", entry["title"])
"""

CRAWLER = """\
from urllib.parse import urljoin
import requests
from bs4 import BeautifulSoup

class Walker:
    def __init__(self, root):
        self.root, self.seen = root, set()

    def visit(self, address, depth=0):
        if address in self.seen or depth > 2:
            return
        self.seen.add(address)
        try:
            page = requests.get(address, timeout=5)
        except Exception:
            return
        print("visited", address)
        for anchor in BeautifulSoup(page.text, "html.parser").find_all("a"):
            target = urljoin(self.root, anchor.get("href"))
            if target.startswith(self.root):
                self.visit(target, depth + 1)

Walker("https://docs.example.org").visit("https://docs.example.org")
"""


def _run(name: str, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, str]:
    code, report = run_json(capsys, name, "--repeat", "2", "--timeout", "20", "--no-save", *flags)
    return code, report["stdout"]


def test_a_feed_reached_through_parameters_is_answered_with_a_feed(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "feeds.py").write_text(FEEDS)
    code, printed = _run("feeds.py", capsys)
    assert code == 0 and "world | " in printed and "tech | " in printed, printed


def test_a_crawl_from_a_url_parameter_reaches_a_linked_page(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "walker.py").write_text(CRAWLER)
    code, printed = _run("walker.py", capsys)
    lines = printed.splitlines()
    assert code == 0 and lines[0] == "visited https://docs.example.org", printed
    assert any(line.startswith("visited https://docs.example.org/") for line in lines), printed
