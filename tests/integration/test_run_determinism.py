"""``automock run`` makes programs whose plain runs differ give identical output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from automock.cli import main

PROGRAMS = {
    "clock": "import time, datetime\nprint(time.time(), time.time_ns(), datetime.datetime.now())\n",
    "random": (
        "import os, random, secrets, uuid\n"
        "print(random.random(), random.Random().random(), uuid.uuid4(), os.urandom(8).hex(), secrets.token_hex(8))\n"
    ),
    "numpy": (
        "import numpy as np\n"
        "print(np.random.rand(3).round(12).tolist(), np.random.default_rng().integers(0, 10**9, 3).tolist())\n"
    ),
    "hash_order": "words = {f'word{i}' for i in range(40)}\nprint(list(words))\n",
}


def _plain(path: Path) -> str:
    env = {**os.environ, "PYTHONHASHSEED": "random"}
    return subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, env=env, check=True
    ).stdout


def _run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["run", "--json", *argv])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_plain_runs_differ_but_automock_runs_repeat(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"prog_{name}.py"
    path.write_text(PROGRAMS[name])
    assert _plain(path) != _plain(path), "the program should be nondeterministic when run plainly"

    code, report = _run_json(capsys, str(path), "--repeat", "2")

    assert code == 0, report["stderr"]
    assert report["deterministic"] is True
    assert report["diff"] == ""
    first, second = report["runs"]
    assert first["stdout"] == second["stdout"] != ""


def test_seed_changes_the_random_stream(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "random.py"
    path.write_text(PROGRAMS["random"])
    _, one = _run_json(capsys, str(path), "--seed", "1")
    _, two = _run_json(capsys, str(path), "--seed", "2")
    assert one["seed"] == 1 and two["seed"] == 2
    assert one["stdout"] != two["stdout"]


@pytest.mark.parametrize("example", ["raffle.py", "job_scheduler.py", "ledger.py"])
def test_examples_are_deterministic(example: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / example
    code, report = _run_json(capsys, str(path), "--check-determinism")
    assert code == 0, report["stderr"]
    assert report["deterministic"] is True
    assert report["stdout"].strip()
    assert report["touchpoints"], "the scanner should find the example's touchpoints"


def test_nondeterminism_left_unmocked_gives_a_verdict_and_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cpu.py"  # CPU time is not mocked (addresses now repeat: test_run_frontier)
    path.write_text("import time\nprint('same line')\nprint(time.process_time_ns())\n")

    code, report = _run_json(capsys, str(path), "--repeat", "2")

    assert report["deterministic"] is False
    assert code == 4  # the program succeeded, but its runs differ
    assert report["exit_code"] == 0
    assert report["diff"].startswith("--- run 1 stdout\n+++ run 2 stdout\n")
    assert "-same line" not in report["diff"]


def test_text_report_follows_program_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hello.py"
    path.write_text("import sys\nprint('out', sys.argv[1:])\nprint('err', file=sys.stderr)\n")

    code = main(["run", str(path), "--repeat", "2", "--", "a", "--b"])

    out, err = capsys.readouterr()
    assert code == 0
    assert out == "out ['a', '--b']\n"
    assert err.startswith("\u2502 err\n")  # the program's stderr, behind the gutter
    assert "verdict over 2 runs: deterministic" in err
    assert "isolation (observed by automock from outside the sandbox):" in err
    assert "network" in err
