"""Process escapes: killing the parent, leaving daemons behind, bypassing subprocess via
_posixsubprocess.fork_exec."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import NOT_OK, Attack, LoopbackServer, batch_attack, program, run_attack, survivors

REPO = Path(__file__).resolve().parents[2]


def _wrapped(code: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run automock from a throwaway parent process, so a successful kill cannot take pytest down."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        start_new_session=True,
    )


def test_kill_parent_under_run() -> None:
    proc = _wrapped(
        f"""
        import json, sys
        from automock.pipeline.run import run_file
        report = run_file({str(program("kill_parent"))!r}, timeout=10)
        print(json.dumps({{"status": report.status, "stdout": report.stdout}}))
        print("PARENT-SURVIVED")
        """
    )
    assert proc.returncode == 0, (proc.returncode, proc.stdout[-500:], proc.stderr[-1500:])
    assert "PARENT-SURVIVED" in proc.stdout
    result = json.loads(proc.stdout.splitlines()[0])
    assert "sent" not in result["stdout"] or "refused" in result["stdout"], result


def test_kill_parent_in_batch() -> None:
    proc = _wrapped(
        f"""
        import json, sys
        from automock import execute_many
        src = open({str(program("kill_parent"))!r}).read()
        results = list(execute_many([src, "print('after')"], timeout=10))
        print(json.dumps([[r.status, r.stdout] for r in results]))
        print("PARENT-SURVIVED")
        """
    )
    assert proc.returncode == 0, (proc.returncode, proc.stdout[-500:], proc.stderr[-1500:])
    assert "PARENT-SURVIVED" in proc.stdout
    results = json.loads(proc.stdout.splitlines()[0])
    assert results[1] == ["passed", "after\n"], results  # the pool kept working


@pytest.mark.parametrize("attack", [run_attack, batch_attack], ids=["run", "batch"])
def test_daemons_do_not_survive(attack: Attack, marker: str) -> None:
    """Double fork + setsid escapes the process group; nothing may outlive the run anyway.
    The daemons also hold stdout/stderr open: the run must still return (no hang to EOF)."""
    outcome = attack("daemon_escape", marker, timeout=5)
    left = survivors(marker)
    assert left == [], f"daemons survived: {left}\n{outcome.explain()}"


@pytest.fixture
def outside_file() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="automock-adv-fe-", dir="/tmp"))
    folder.chmod(0o1777)
    try:
        yield folder / "fork_exec.txt"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("attack", [run_attack, batch_attack], ids=["run", "batch"])
def test_fork_exec_bypass_contained(
    attack: Attack, server: LoopbackServer, outside_file: Path
) -> None:
    outcome = attack("fork_exec_bypass", str(server.port), str(outside_file))
    assert server.accepted == [], outcome.explain()
    assert not outside_file.exists(), outcome.explain()
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status in NOT_OK, outcome.explain()


def test_no_leftover_children_of_the_test_process() -> None:
    """After all the attacks above, this process has no stray (non-zombie) children running."""
    me = os.getpid()
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rfind(")") + 2 :].split()
            if int(fields[1]) == me and fields[0] not in ("Z", "X"):
                kids.append(entry)
    # a warm batch pool may keep its workers; they must be ours and few
    assert len(kids) <= 4, kids
