"""Runs started together agree: each ``automock run`` has a uid of its own, so what other
runs (some holding every process they may) and a batch do beside it changes nothing in its
process limit or its task count, and an address-sensitive program (a set of plain objects,
default reprs) prints the same in all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

ADDRESSES = """\
class Node:
    pass


nodes = {Node() for _ in range(24)}
print(nodes)
print(sorted(id(n) % 4096 for n in nodes))
"""

BESIDE = """\
from automock import execute_many

hold = "import os, select\\nfor _ in range(40):\\n    if os.fork() == 0:\\n        break\\nselect.select([], [], [], 6)\\n"
execute_many([hold] * 4, timeout=8)
"""


GREEDY = """\
import os, select
for _ in range(500):
    try:
        if os.fork() == 0:
            break
    except OSError:
        break
select.select([], [], [], 6)
"""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHASHSEED", "AUTOMOCK_SPAWN")}
    env.update(AUTOMOCK_SERVER="0", PYTHONPATH=str(REPO))
    return env


# ``automock run`` with its lowest fds taken, as a process that has files open when it runs
# (another thread's, a caller's) has them: its pipes to the sandbox child land at other numbers
CROWDED = """\
import os, sys
for _ in range(12):
    os.open(os.devnull, os.O_RDONLY)
from automock.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _both_runs(tmp_path: Path, script: Path, *prefix: str) -> list[str]:
    argv = [sys.executable, *prefix, "run", str(script), "--repeat", "2", "--json", "--no-save"]
    done = subprocess.run(
        argv, cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, (done.returncode, done.stdout[-3000:], done.stderr[-2000:])
    report = json.loads(done.stdout)
    assert report["deterministic"] is True, report.get("diff")
    return [run["stdout"] for run in report["runs"]]


@pytest.mark.slow
def test_a_program_sees_the_same_fds_whatever_the_automock_process_holds(tmp_path: Path) -> None:
    """The sandbox child got its pipes at the numbers they had in the automock process (what
    that had open when it started the child: another run's pipes, a caller's files), so a
    program listing its fds printed another list in each run, and every fd the child opened
    while it isolated itself (spelled in ``/proc/self/fd/N`` paths) had another number: other
    allocations, other addresses in an address-stable run (issue 23)."""
    script = tmp_path / "fds.py"
    script.write_text("import os\nprint(sorted(map(int, os.listdir('/proc/self/fd'))))\n")
    plain = _both_runs(tmp_path, script, "-m", "automock")
    crowded = _both_runs(tmp_path, script, "-c", CROWDED)
    assert crowded == plain == [plain[0], plain[0]]


@pytest.mark.slow
def test_ten_concurrent_runs_beside_a_batch_are_deterministic_and_agree(tmp_path: Path) -> None:
    script = tmp_path / "addresses.py"
    script.write_text(ADDRESSES)
    batch = subprocess.Popen([sys.executable, "-c", BESIDE], cwd=tmp_path, env=_env())
    greedy = tmp_path / "greedy.py"  # runs beside them that hold every process they may
    greedy.write_text(GREEDY)
    hold = [sys.executable, "-m", "automock", "run", str(greedy), "--no-save", "--timeout", "8"]
    holders = [subprocess.Popen(hold, cwd=tmp_path, env=_env()) for _ in range(3)]
    argv = [sys.executable, "-m", "automock", "run", str(script), "--repeat", "2", "--json"]
    runs = [
        subprocess.Popen(
            [*argv, "--no-save"],
            cwd=tmp_path,
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(10)
    ]
    outputs = []
    for proc in runs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, (proc.returncode, out[-3000:], err[-2000:])
        report = json.loads(out)
        assert report["deterministic"] is True, report.get("diff")
        outputs.append([run["stdout"] for run in report["runs"]])
    assert batch.wait(timeout=120) == 0
    for proc in holders:
        proc.wait(timeout=120)
    first = outputs[0][0]
    assert "Node object at 0x" in first
    assert all(both == [first, first] for both in outputs), outputs
