"""What scanning a package costs over scanning its files one by one.

``automock scan ENTRY.py --follow`` (and every ``run`` / ``draft`` of an entry
point) discovers the project modules the entry imports, scans each file as
before, then runs the cross-module flow pass. This script measures, in fresh
interpreters (so no scan cache is warm):

* **files**: :func:`automock.analysis.scanner.scan_file` on each module of the package;
* **project**: :func:`automock.analysis.follow.scan_project` on its entry script;

as CPU time (best of five) and peak traced memory (tracemalloc), and prints
project / files. Packages: the three example apps, and a generated one of 40
modules where each hands a session to the next.

    python benchmarks/scan_project.py [ENTRY.py ...]

Extra entry scripts (a checkout of a real package nobody here wrote) are measured the same
way after the built-in cases; their figures are the out-of-sample ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from _timing import load_line

REPO = Path(__file__).resolve().parents[1]
APPS = {
    "news_digest": "run_digest.py",
    "catalog_sync": "sync_catalog.py",
    "job_scraper": "scrape_jobs.py",
}
_MEASURE = """
import json, sys, time, tracemalloc
from pathlib import Path
mode, entry = sys.argv[1], Path(sys.argv[2])
from automock.analysis.project import discover_project
from automock.analysis.follow import scan_project
from automock.analysis.scanner import scan_file
import libcst  # imported by both ways; not what is measured
files = [m.path for m in discover_project(entry).modules]
tracemalloc.start()
start = time.process_time()
if mode == "files":
    found = sum(len(scan_file(f).touchpoints) for f in files)
else:
    found = len(scan_project(entry).result.touchpoints)
cpu = time.process_time() - start
peak = tracemalloc.get_traced_memory()[1]
print(json.dumps({"cpu": cpu, "peak": peak, "found": found, "files": len(files)}))
"""


def _generated(root: Path, count: int = 40) -> Path:
    """A package of ``count`` modules: module i makes or takes a session and calls module i+1."""
    (root / "gen").mkdir()
    (root / "gen" / "__init__.py").write_text("")
    for i in range(count):
        nxt = f"from .m{i + 1} import step as next_step\n" if i + 1 < count else ""
        call = "    next_step(session, rng)\n" if i + 1 < count else ""
        body = f"""
            import random
            import requests
            {nxt.strip()}

            class Worker{i}:
                def __init__(self, session):
                    self.session = session

                def fetch(self):
                    return self.session.get("https://api.example.com/{i}").json()["v"]

            def step(session=None, rng=None):
                session = session or requests.Session()
                rng = rng or random
                Worker{i}(session).fetch()
                rng.random()
            """
        (root / "gen" / f"m{i}.py").write_text(textwrap.dedent(body) + call)
    entry = root / "main.py"
    entry.write_text("from gen.m0 import step\n\nstep()\n")
    return entry


def _measure(mode: str, entry: Path) -> dict[str, float]:
    runs = []
    for _ in range(5):
        done = subprocess.run(
            [sys.executable, "-c", _MEASURE, mode, str(entry)],
            capture_output=True,
            text=True,
            check=True,
            cwd=entry.parent,
        )
        runs.append(json.loads(done.stdout))
    best = min(runs, key=lambda r: r["cpu"])
    return {**best, "peak": max(r["peak"] for r in runs)}


def main() -> None:
    before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        cases = {name: REPO / "examples" / name / entry for name, entry in APPS.items()}
        cases["generated (40 modules)"] = _generated(Path(tmp))
        for extra in sys.argv[1:]:
            cases[Path(extra).resolve().parent.name + "/" + Path(extra).name] = Path(extra).resolve()
        print(f"{'package':<24} {'files':>5} {'found':>11} {'cpu ms':>15} {'peak KiB':>17}")
        for name, entry in cases.items():
            one = _measure("files", entry)
            whole = _measure("project", entry)
            print(
                f"{name:<24} {int(one['files']):>5} {int(one['found']):>4} -> {int(whole['found']):<4}"
                f" {one['cpu'] * 1e3:6.1f} -> {whole['cpu'] * 1e3:6.1f}"
                f" ({whole['cpu'] / one['cpu']:.2f}x)"
                f" {one['peak'] / 1024:6.0f} -> {whole['peak'] / 1024:6.0f}"
                f" ({whole['peak'] / one['peak']:.2f}x)"
            )
    print(load_line(before, os.getloadavg()[0]))


if __name__ == "__main__":
    main()
