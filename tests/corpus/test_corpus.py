"""Real scripts run on the plans the offline drafter writes, through ``automock run``.

Each script (``scripts/``: our own programs, each following a pattern seen in the
repository ``MANIFEST.json`` names) is copied
into a temporary directory, so its drafted plan is written there, and run twice
by the CLI: both runs must exit 0, print the same output, and print the
manifest's main-path line (a line only the success path prints). A
representative few run by default; the rest are marked ``slow``.
``benchmarks/corpus_drafts.py`` reports the share over the whole corpus.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
MANIFEST: list[dict[str, Any]] = json.loads((HERE / "MANIFEST.json").read_text())
FAST = {
    "rates_loop_symbols",
    "hn_session_top",
    "paginated_has_more",
    "format_kwargs_entry",
    "bs4_books_articles",
    "lxml_xpath_links",
    "rss_iterfind_urllib",
    "sqlite_books",
}


def _cases() -> list[Any]:
    return [
        pytest.param(e, id=e["name"], marks=() if e["name"] in FAST else pytest.mark.slow)
        for e in MANIFEST
    ]


def test_manifest_names_every_script_with_its_source() -> None:
    names = {p.stem for p in (HERE / "scripts").glob("*.py")}
    assert names == {e["name"] for e in MANIFEST}
    assert len(names) >= 40
    for entry in MANIFEST:
        head = (HERE / "scripts" / f"{entry['name']}.py").read_text().splitlines()[:3]
        assert head[1].startswith("# pattern seen in: ")
        assert head[2].startswith("# our own program")
        assert (
            entry["pattern"] == f"pattern seen in {entry['repo']}"
            or "repository not named" in entry["pattern"]
        )


@pytest.mark.parametrize("entry", _cases())
def test_script_reaches_its_main_path_deterministically(
    entry: dict[str, Any], tmp_path: Path
) -> None:
    name = entry["name"]
    shutil.copy(HERE / "scripts" / f"{name}.py", tmp_path / f"{name}.py")
    outputs = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-m", "automock", "run", f"{name}.py"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        outputs.append(proc.stdout.split("── automock run", 1)[0])
    assert (tmp_path / "fixtures" / f"{name}.automock.json").is_file()
    assert outputs[0] == outputs[1]
    assert entry["expect"] in outputs[0]
