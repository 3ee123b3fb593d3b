"""Package-shaped programs run from a fresh copy with no plan and no hand edits.

Each example app under examples/ is an entry script and 3-5 modules of its
own (170-280 lines, written as such tools are: argparse, settings from the
environment with fallbacks, retries, logging, caches, dataclasses);
`automock run ENTRY.py --repeat 2` (the `automock` command, in a subprocess)
must draft one plan covering every module, run it twice to the same clean
exit 0, and print output that shows the main path ran on drafted data.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

APPS = {
    # app folder, entry, module of every stubbed request, and patterns the output must
    # match: each needs data taken from a drafted response (an empty run matches none)
    "news_digest": (
        "run_digest.py",
        "digest/feed.py",
        [
            r"^digest [0-9a-f]{12} built 2024-01-01 00:00 from [1-9]\d* articles$",
            r"^  \[science \] +\d+\.\d  \S.*\(\d{4}-\d{2}-\d{2}\)$",  # title, published date
            r"^  (climate|science|space): [1-9]\d* picked, average score \d+(\.\d+)?$",
            r"^1 digest\(s\) stored in digest\.db$",  # read back from the second table
        ],
    ),
    "catalog_sync": (
        "sync_catalog.py",
        "catalog/api.py",
        [
            # "for <name>": the login answered and its Set-Cookie was kept by the client
            r"^catalog report 2024-01-01T00:00:00\+00:00 for \S+ \([1-9]\d* page\(s\) in ",
            r"^  \w[\w ]* +[1-9]\d* products, in-stock value +\d+\.\d{2} EUR",
            r"^[1-9]\d* products synced$",
        ],
    ),
    "job_scraper": (
        "scrape_jobs.py",
        "jobs/fetch.py",
        [
            r"^[1-9]\d* openings on 01 Jan 2024$",
            r"^  \S.* +(remote|on site) +[\d,]+",  # a salary parsed from the card's text
            r"^median pay [\d,]+$",
            r"^best paid: .+ \(https://careers\.example\.org/\S+\)$",  # href joined to the page
        ],
    ),
}


def automock(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTOMOCK")}
    return subprocess.run(
        [sys.executable, "-m", "automock", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("app", sorted(APPS))
def test_a_package_runs_deterministically_from_a_fresh_copy(app: str, tmp_path: Path) -> None:
    entry, fetching_module, expected = APPS[app]
    copy = tmp_path / app
    shutil.copytree(REPO / "examples" / app, copy)
    assert not (copy / "fixtures").exists()

    done = automock("run", entry, "--repeat", "2", cwd=copy)

    assert done.returncode == 0, done.stderr
    assert "verdict over 2 runs: deterministic" in done.stderr
    assert "UNMOCKED" not in done.stderr
    for pattern in expected:
        assert re.search(pattern, done.stdout, re.MULTILINE), (pattern, done.stdout)
    plan = json.loads((copy / "fixtures" / f"{Path(entry).stem}.automock.json").read_text())
    assert next(iter(plan["modules"])) == entry
    stubs = [e for e in plan["entries"] if e["strategy"] == "stub_http"]
    assert stubs and all(e["module"] == fetching_module for e in stubs)
    served = f"{fetching_module} line {stubs[0]['line']})"
    assert served in done.stderr  # the report names the stub's module and line


def test_the_worked_example_tests_run_on_the_entry_points_plan(tmp_path: Path) -> None:
    """docs/packages.md: the example's own tests name run_digest.py as their plan."""
    copy = tmp_path / "news_digest"
    shutil.copytree(REPO / "examples" / "news_digest", copy)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AUTOMOCK", "PYTEST"))}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout
    assert not (copy / "fixtures").exists()  # drafted for the tests, not saved
