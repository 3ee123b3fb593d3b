"""http.client: ``conn.request("GET", "/path")`` is sent to the connection's own host.

The path alone names no host, so the draft used to leave the call denied; the connection
(``HTTPConnection("localhost", 8000)``) says where it goes, and the stub is drafted
there with the body the program reads from ``getresponse()``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_json

LISTING = """\
import http.client
import json

conn = http.client.HTTPConnection("localhost", 8123)
conn.request("GET", "/", headers={"Accept": "*/*"})
reply = conn.getresponse()
for note in json.loads(reply.read()):
    print("note", note["title"])
"""


def test_a_path_requested_on_a_connection_is_stubbed_on_its_host(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "notes.py").write_text(LISTING)
    code, report = run_json(capsys, "notes.py", "--repeat", "2", "--draft-rounds", "0")
    assert code == 0 and report["stdout"].count("note ") == 2
    plan = json.loads((here / "fixtures" / "notes.automock.json").read_text())
    (stub,) = [e["data"] for e in plan["entries"] if e["strategy"] == "stub_http"]
    assert stub["url"] == "http://localhost:8123/"
