"""The drafting loop through the CLI: crashes the first draft causes that the loop repairs.

Our own small programs, each failing on its single-shot draft (``--draft-rounds 0``) in a
way Python reports from C, where no noting subclass sees the use, or in a loop over pages
of text:

- a drafted number joined to text (``"at " + n``, ``" | ".join([..., n])``): a TypeError;
- an XML element read by child position (``node[0]``, ``node[2]``) that has no children in
  the draft: an IndexError;
- a loop over HTML pages that follows a next-page link, served by one prefix stub that
  answers every page with the same page: it never ends;
- a BeautifulSoup search with a ``string=`` regular expression: the element the repair
  added had drafted text the expression does not match, so every round missed again.

Before, the loop saw nothing it could act on and stopped after its first trial run
("no repair found"); now each gets a repair and the run ends clean with the data printed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import run_json

JOINED = """\
import requests

weather = requests.get("https://api.example.net/v2/cities", params={"q": "oslo"}).json()
city = weather["cities"][0]
print("city " + city["name"] + " at " + city["temperature"] + " degrees")
print(" | ".join([city["name"], city["humidity"]]))
"""

RECORDS = """\
import xml.etree.ElementTree as ET
import requests

root = ET.fromstring(requests.get("https://data.example.net/export.xml").text)
for node in root.findall("record"):
    print(node[0].text, "=", node[2].text)
"""

CATALOG = """\
from urllib.parse import urljoin
import requests
from bs4 import BeautifulSoup

address = "https://shop.example.org/catalog?page=1"
while address:
    soup = BeautifulSoup(requests.get(address, timeout=5).text, "html.parser")
    for title in soup.select("div.product h2"):
        print("product", title.get_text(strip=True))
    more = soup.find("a", class_="next-page")
    address = urljoin(address, more["href"]) if more else None
"""


NOTES = """\
import re
import requests
from bs4 import BeautifulSoup

soup = BeautifulSoup(requests.get("https://wiki.example.org/notes").text, "html.parser")
dated = soup.find_all("li", string=re.compile(r"^20\\d\\d-\\d\\d"))
print("dated notes:", [item.get_text() for item in dated])
if not dated:
    raise SystemExit("no dated notes")
"""


def _run(
    here: Path, capsys: pytest.CaptureFixture[str], name: str, source: str, rounds: int
) -> tuple[int, str, list[str]]:
    (here / name).write_text(source)
    flags = ("--no-save", "--timeout", "20", "--draft-rounds", str(rounds))
    code, report = run_json(capsys, name, *flags)
    notes = [n for n in report.get("notes", []) if n.startswith("drafting loop")]
    return code, report["stdout"], notes


def test_a_number_joined_to_text_becomes_text(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = _run(here, capsys, "joined.py", JOINED, 0)
    assert code != 0
    code, printed, notes = _run(here, capsys, "joined.py", JOINED, 3)
    assert code == 0, notes
    lines = printed.splitlines()
    assert lines[0].startswith("city ") and lines[0].endswith(" degrees"), printed
    assert " | " in lines[1], printed
    assert any("as a str" in n for n in notes), notes


def test_xml_read_by_child_position_gets_children(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = _run(here, capsys, "records.py", RECORDS, 0)
    assert code != 0
    code, printed, notes = _run(here, capsys, "records.py", RECORDS, 3)
    assert code == 0, notes
    assert printed and all(" = " in line for line in printed.splitlines()), printed
    assert any("<record> read by position" in n for n in notes), notes


def test_html_pages_followed_by_a_next_link_end(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = _run(here, capsys, "catalog.py", CATALOG, 0)
    assert code != 0
    code, printed, notes = _run(here, capsys, "catalog.py", CATALOG, 3)
    assert code == 0, notes
    assert printed.startswith("product "), printed
    assert any("a loop the response never ends; repaired" in n for n in notes), notes
    assert notes[-1].endswith("(a clean run)"), notes


def test_a_search_by_string_pattern_gets_matching_text(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = _run(here, capsys, "notes.py", NOTES, 0)
    assert code != 0
    code, printed, notes = _run(here, capsys, "notes.py", NOTES, 3)
    assert code == 0, notes
    assert re.search(r"dated notes: \['20\d\d-\d\d", printed), printed
