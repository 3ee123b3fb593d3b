"""A paging loop that ends on ``KeyError`` ends on a last page without the link (issue 24).

``try: url = page["next_page"] except KeyError: break``: the draft's last page said
``"next_page": null`` (right for ``while url:`` or ``.get``), so this loop followed
``None`` as a URL and died of ``Invalid URL 'None'``. A link read by subscript under a
handler of a missing key is left out of the last page instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_json

PROGRAM = """\
import requests

url = "https://feed.example.org/items"
while True:
    page = requests.get(url).json()
    for item in page["items"]:
        print("item", item["title"])
    try:
        url = page["next_page"]
    except KeyError:
        break
print("done")
"""


def test_a_loop_ended_by_a_missing_link_reads_two_pages_and_ends(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "feed.py").write_text(PROGRAM)
    code, report = run_json(capsys, "feed.py", "--repeat", "2", "--draft-rounds", "0")
    assert code == 0, report.get("detail")
    lines = report["stdout"].splitlines()
    assert lines[-1] == "done" and lines.count("done") == 1
    assert len([line for line in lines if line.startswith("item ")]) >= 2
