"""What automock's pytest plugin costs a project that does not use it.

pytest loads the plugin (``pytest11`` entry point) in every session of a venv where
automock is installed. This script writes a one-test file that freezes time with
freezegun (whose ``start()`` walks the attributes of every loaded module, so anything
importable through ``dir()`` gets imported) and runs ``python -m pytest`` on it, with
the plugin and with ``-p no:automock``, alternating, several times; it prints the median
wall time of each and the difference (target: at most 0.15 s), and the same for the CPU
time the pytest processes used (user + system), which a busy machine disturbs less.

Run: ``python benchmarks/plugin_cost.py [RUNS]`` (default 7 of each).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import load_line, usage

TEST = """\
import datetime

import freezegun


def test_frozen():
    with freezegun.freeze_time("2024-01-01"):
        assert datetime.date.today() == datetime.date(2024, 1, 1)
"""
TARGET = 0.15


def _session(directory: Path, extra: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one ``python -m pytest`` session."""
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra, "."]
    cpu_before = usage()[0]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=directory, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"pytest failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return elapsed, usage()[0] - cpu_before


def main(argv: list[str]) -> int:
    runs = int(argv[0]) if argv else 7
    before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        (directory / "test_one.py").write_text(TEST, encoding="utf-8")
        (directory / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # no rootdir config
        _session(directory, [])  # warm the file system cache and the bytecode
        with_plugin: list[tuple[float, float]] = []
        without: list[tuple[float, float]] = []
        for _ in range(runs):
            with_plugin.append(_session(directory, []))
            without.append(_session(directory, ["-p", "no:automock"]))
    print(f"one freezegun test, median of {runs} runs each")
    for index, what in ((0, "wall"), (1, "CPU")):
        on = statistics.median(run[index] for run in with_plugin)
        off = statistics.median(run[index] for run in without)
        verdict = "within" if on - off <= TARGET else "ABOVE"
        print(
            f"  {what}: {on:.3f} s with automock's plugin, {off:.3f} s with -p no:automock; "
            f"difference {on - off:+.3f} s ({verdict} the {TARGET} s target)"
        )
    print(load_line(before, os.getloadavg()[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
