"""Package-shaped programs run from a fresh copy with no plan and no hand edits.

Each example app under examples/ is an entry script and 3-4 modules of its
own; `automock run ENTRY.py --repeat 2` (the `automock` command, in a
subprocess) must draft one plan covering every module, run it twice to the
same clean exit 0, and print output that shows the main path ran on drafted
data.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

APPS = {
    # app folder, entry, (module of a stubbed request), what the main path prints
    "news_digest": (
        "run_digest.py",
        "digest/feed.py",
        ["built 2024-01-01 00:00 from 6 articles", "picked, average score"],
    ),
    "catalog_sync": (
        "sync_catalog.py",
        "catalog/api.py",
        ["catalog report 2024-01-01T00:00:00+00:00 (1 page(s)", "products synced"],
    ),
    "job_scraper": (
        "scrape_jobs.py",
        "jobs/fetch.py",
        ["openings on 01 Jan 2024", "on site"],
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
    for text in expected:
        assert text in done.stdout, done.stdout
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
