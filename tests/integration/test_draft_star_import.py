"""A parser brought in by ``from module import *`` is still the parser (issue 24).

``from xml.etree.ElementTree import *`` then ``fromstring(reply.read())``: the draft read
``fromstring`` as a name of the program's own, saw no parser, and stubbed the reply with
plain text, so the program died of a ParseError on the drafted body. A name the program
reads but binds nowhere is the star import's (when there is one), so the reply is drafted
as XML with the elements the program looks for."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_json

PROGRAM = """\
import urllib.request
from xml.etree.ElementTree import *


def fetch(url):
    return urllib.request.urlopen(url)


def main():
    reply = fetch("https://records.example.org/search?term=owls")
    root = fromstring(reply.read())
    for found in root.findall(".//RecordId"):
        print("record", found.text)


main()
"""


def test_a_star_imported_parser_gets_a_body_of_its_kind(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "records.py").write_text(PROGRAM)
    code, report = run_json(capsys, "records.py", "--repeat", "2", "--draft-rounds", "0")
    assert code == 0, report.get("detail")
    lines = report["stdout"].splitlines()
    assert lines and all(line.startswith("record ") and line != "record None" for line in lines)
