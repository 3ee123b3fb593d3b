"""``automock run`` reports clock and random reads as mocked accesses, once per API."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from automock.cli import main

PROGRAM = """\
import random
import time
from datetime import datetime

for _ in range(1000):
    stamp = time.time()
    roll = random.random()
print(int(stamp), round(roll, 6), datetime.now().year, random.randint(1, 6))
"""


def test_clock_and_random_reads_are_listed_once_and_mocked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "reads.py"
    path.write_text(PROGRAM)

    code = main(["run", "--json", "--repeat", "2", str(path)])
    report = json.loads(capsys.readouterr().out)

    assert code == 0, report["stderr"]
    assert report["status"] == "passed" and report["deterministic"] is True
    assert report["stdout"].startswith("1704067200 ")  # the frozen instant
    counts = Counter((a["kind"], a["api"]) for a in report["accesses"])
    wanted = {
        ("time", "time.time"),
        ("time", "datetime.datetime.now"),
        ("random", "random.random"),
        ("random", "random.randint"),
    }
    assert {key: counts[key] for key in wanted} == dict.fromkeys(wanted, 1)
    reads = [a for a in report["accesses"] if (a["kind"], a["api"]) in wanted]
    assert all(a["mocked"] is True for a in reads)
    assert report["unmocked"] == []


def test_an_isolated_child_interpreter_is_listed_as_an_unmocked_process_access(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The runtime cannot reach into an interpreter started with -I (it ignores PYTHONPATH):
    the report says so, with the fix; the process still runs. (A plain Python child follows
    the plan: tests/integration/test_run_frontier.py.)"""
    path = tmp_path / "child.py"
    path.write_text(
        "import subprocess, sys\n"
        "out = subprocess.run([sys.executable, '-I', '-c', 'import random; print(random.random())'],\n"
        "                     capture_output=True, text=True).stdout\n"
        "print(out.strip() != '')\n"
    )

    code = main(["run", "--json", str(path)])
    report = json.loads(capsys.readouterr().out)

    assert code == 0, report["stderr"]
    (access,) = report["unmocked"]
    assert (access["kind"], access["api"], access["mocked"]) == (
        "process",
        "subprocess.Popen",
        False,
    )
    assert "in-process" in access["fix"]
    assert report["stdout"] == "True\n"
