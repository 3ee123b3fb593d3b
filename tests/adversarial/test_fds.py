"""Closing or hijacking file descriptors: the report still arrives (or the run is an error),
never a hang and never a forged verdict."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .harness import NOT_OK, Attack, batch_attack, cli_attack, run_attack

ATTACKS = [run_attack, cli_attack, batch_attack]
IDS = ["run", "cli", "batch"]


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_close_all_fds(attack: Attack) -> None:
    outcome = attack("fd_close_all", timeout=5)
    assert outcome.status != "timeout", outcome.explain()  # no hang waiting for a report
    assert "closing everything" in outcome.stdout or outcome.status in NOT_OK, outcome.explain()


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_forged_report_is_not_believed(attack: Attack) -> None:
    outcome = attack("fd_dup2_forge", timeout=5)
    assert outcome.status != "timeout", outcome.explain()
    assert "FORGED" not in outcome.stdout, outcome.explain()


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_closed_stdio_keeps_exit_code(attack: Attack) -> None:
    outcome = attack("fd_stdout_closed_exit", timeout=5)
    assert outcome.status in NOT_OK, outcome.explain()
    assert outcome.exit_code not in (None, 0), outcome.explain()


def test_forged_passing_verdict_in_batch_pair() -> None:
    """A (code, tests) candidate that writes a 'passed' verdict to every fd and exits before its
    failing tests run must not be counted as passed."""
    from automock import execute_many

    code = (
        "import json, os\n"
        "v = json.dumps({'status': 'passed', 'exit_code': 0, 'detail': '', 'layers': []}).encode()\n"
        "for fd in range(3, 256):\n"
        "    try:\n"
        "        os.write(fd, v)\n"
        "    except OSError:\n"
        "        pass\n"
        "os._exit(0)\n"
    )
    results = list(execute_many([(code, "assert False, 'tests must run'")], timeout=5))
    assert results[0].status != "passed", results[0]


@pytest.mark.parametrize("forged", ["ok", "PASSED", "passed\u200b"])
def test_forged_verdict_with_an_invalid_status_is_an_error(forged: str) -> None:
    """A verdict whose status is not one automock writes is reported as an error."""
    from automock import execute_many

    code = (
        "import json, os\n"
        f"v = json.dumps({{'status': {forged!r}, 'exit_code': 0, 'detail': '', 'layers': []}}).encode()\n"
        "for fd in range(3, 256):\n"
        "    try:\n"
        "        os.write(fd, v)\n"
        "    except OSError:\n"
        "        pass\n"
        "os._exit(0)\n"
    )
    results = list(execute_many([(code, "assert False, 'tests must run'")], timeout=5))
    # the candidate's process holds no verdict pipe: what it wrote went to its own channel
    assert results[0].status == "failed", results[0]
    assert "candidate" in results[0].detail


@pytest.mark.parametrize("exit_code", ["'x'", "1e400", "None", "[1]"])
def test_forged_verdict_with_a_bad_exit_code_does_not_break_the_pool(exit_code: str) -> None:
    """The verdict pipe is writable by the candidate: whatever it writes there, the batch
    goes on and the other candidates get their results."""
    from automock import execute_many

    code = (
        "import os\n"
        f'v = (\'{{"status": "failed", "exit_code": \' + {exit_code!r} + \', "detail": ""}}\')\n'
        "for fd in range(3, 256):\n"
        "    try:\n"
        "        os.write(fd, v.replace(\"'\", '\"').encode())\n"
        "    except OSError:\n"
        "        pass\n"
        "os._exit(0)\n"
    )
    results = list(execute_many([code, "print('next')"], timeout=5))
    # a program's verdict is its exit status (0 here), whatever it wrote on any fd
    assert (results[0].status, results[0].exit_code) == ("passed", 0), results[0]
    assert (results[1].status, results[1].stdout) == ("passed", "next\n")


def _sandbox_children(root: int) -> list[int]:
    """Sandbox child interpreters below ``root`` (any depth)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        for kid in [p for p, parent in parents.items() if parent == pid]:
            frontier.append(kid)
            with contextlib.suppress(OSError):
                if b"automock.sandbox.run.ending" in Path(f"/proc/{kid}/cmdline").read_bytes():
                    found.append(kid)
    return found


def _uid(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError(f"no Uid line for {pid}")


@pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox's uid drop marks its start (root)")
def test_a_slow_sandbox_start_does_not_eat_the_programs_timeout(tmp_path: Path) -> None:
    """What a loaded machine does to a run, made certain: the sandbox child is held
    (SIGSTOP) before it starts the program, for longer than the whole timeout. The
    program's timeout is its own; the sandbox's set-up is not part of it."""
    (tmp_path / "quick.py").write_text("print('ran')\n")
    timeout = 2.0
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHASHSEED", "AUTOMOCK_SPAWN")}
    env.update(AUTOMOCK_SERVER="0", PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    argv = [sys.executable, "-m", "automock", "run", "quick.py", "--json"]
    proc = subprocess.Popen(
        [*argv, "--timeout", str(timeout)], cwd=tmp_path, env=env, stdout=subprocess.PIPE
    )
    held = None
    try:
        while held is None and proc.poll() is None:
            for child in _sandbox_children(proc.pid):
                os.kill(child, signal.SIGSTOP)
                if _uid(child) == 0:  # still root: it has not dropped to the run's uid, so
                    held = child  # it has not said it started, nor run any program code
                    break
                os.kill(child, signal.SIGCONT)
                pytest.skip("the sandbox child was past its set-up when first seen")
        assert held is not None, "no sandbox child seen"
        time.sleep(timeout + 1.0)  # the hold, longer than the timeout: the delay under test
        with contextlib.suppress(ProcessLookupError):  # killed meanwhile: a timeout
            os.kill(held, signal.SIGCONT)
        out, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    report = json.loads(out)
    assert report["status"] == "passed", report["detail"]
    assert report["stdout"] == "ran\n"
