"""The drafting loop on a value parsed out of a text body (XML here): a drafted date the
program's own ``strptime`` format rejects is found in the served text and rewritten in that
format, as JSON leaves already were; the next round runs clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_json

RATES = """\
import datetime
import xml.etree.ElementTree as ET

import requests

root = ET.fromstring(requests.get("https://rates.example.org/daily.xml").content)
day = datetime.datetime.strptime(root.attrib["Date"], "%d.%m.%Y").date()
print("rates of", day.isoformat())
"""


def test_a_date_in_xml_is_rewritten_in_the_programs_format(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "rates.py").write_text(RATES)
    code, report = run_json(capsys, "rates.py", "--repeat", "2", "--timeout", "20")
    assert code == 0, report["detail"]
    assert report["stdout"].startswith("rates of 20")
    rounds = report["drafting"]["rounds"]
    assert rounds[0]["ended"] == "failed" and rounds[-1]["ended"] == "clean"
    said = [why for r in rounds for why in r["repairs"]]
    assert any("strptime()" in why and "/text" in why for why in said), said
