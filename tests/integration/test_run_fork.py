"""The command's fork path (``--no-stable-addresses``): ``automock run`` restarts with its hash
seed and forks its child.

Run as a user runs it (``python -m automock run`` in a new process), the child is
forked from the warm command (``runs[].start == "fork"``); with ``AUTOMOCK_SPAWN=1``,
or in-process through ``cli.main``, it is a fresh interpreter (``"spawn"``). A
program must not be able to tell the two apart by anything that is not an
implementation detail (descriptor numbers, ``sys.modules``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.conftest import REPO, automock_command

PROBE = r"""
import atexit, os, signal, sys, threading, time
print("set", {"alpha", "beta", "gamma", "delta", "epsilon", "zeta"})
print("env", sorted(os.environ))
print("stdin", sys.stdin.read(), sys.stdin.name, sys.stdin.mode)
print("streams", sys.stdout.name, sys.stdout.line_buffering, sys.stderr.line_buffering,
      sys.stdout.encoding, sys.stderr.errors, sys.stdout is sys.__stdout__)
print("signals", [getattr(h, "__qualname__", h) for h in map(signal.getsignal, (signal.SIGINT,
      signal.SIGTERM, signal.SIGPIPE, signal.SIGXFSZ, signal.SIGHUP, signal.SIGUSR1))])
print("blocked", sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])))
print("tz", time.tzname, time.localtime(0).tm_hour)
print("cwd", os.path.basename(os.getcwd()), "argv", sys.argv[1:])
print("path0", sys.path[0] == os.path.dirname(os.path.abspath(__file__)))
# the uid is the run's own lease (the lowest free one: another run active beside it moves it)
print("ids", os.getpid(), os.getuid() == os.geteuid(), 0x0F000000 <= os.getuid() < 0x10000000)
atexit.register(lambda: print("atexit ran", flush=True))
threading.Thread(target=lambda: (time.sleep(0.05), print("late thread done"))).start()
"""


def _command(
    cwd: Path, *argv: str, ignoring: tuple[int, ...] = (), **env_extra: str
) -> tuple[int, dict[str, object]]:
    done = automock_command(
        ["run", "--json", "--no-stable-addresses", *argv],
        cwd=cwd,
        ignoring=ignoring,
        TZ="America/New_York",
        **env_extra,
    )
    assert done.stdout.startswith("{"), done.stderr[-2000:]
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize(
    "ignoring",
    [(), (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM)],
    ids=["foreground", "background-job"],
)
def test_forked_and_fresh_children_look_the_same_to_the_program(
    tmp_path: Path, ignoring: tuple[int, ...]
) -> None:
    """Also when automock itself starts with signals ignored (a shell's background job):
    the program gets CPython's own start-up dispositions either way."""
    (tmp_path / "probe.py").write_text(PROBE)

    code_f, forked = _command(tmp_path, "probe.py", "--", "a", "b", ignoring=ignoring)
    code_s, spawned = _command(
        tmp_path, "probe.py", "--", "a", "b", ignoring=ignoring, AUTOMOCK_SPAWN="1"
    )

    assert code_f == code_s == 0, (forked["stderr"], spawned["stderr"])
    assert [r["start"] for r in forked["runs"]] == ["fork"]  # type: ignore[index]
    assert [r["start"] for r in spawned["runs"]] == ["spawn"]  # type: ignore[index]
    assert forked["stdout"] == spawned["stdout"]
    assert forked["stderr"] == spawned["stderr"] == ""
    lines = str(forked["stdout"]).splitlines()
    assert lines[-2:] == ["late thread done", "atexit ran"]  # threads joined, then atexit
    assert "tz ('UTC', 'UTC') 0" in lines  # the parent's TZ does not leak in
    assert any(line.startswith("signals ['default_int_handler', ") for line in lines)


def test_repeated_forked_runs_agree_on_hash_order(tmp_path: Path) -> None:
    (tmp_path / "sets.py").write_text(
        "print({'alpha', 'beta', 'gamma', 'delta'}, {str(i): i for i in range(5)}.keys() & {'1', '3'})\n"
    )

    code, report = _command(tmp_path, "sets.py", "--repeat", "3")
    code_again, again = _command(tmp_path, "sets.py")

    assert code == code_again == 0, report["stderr"]
    assert report["deterministic"] is True
    assert [r["start"] for r in report["runs"]] == ["fork"] * 3  # type: ignore[index]
    assert again["stdout"] == report["stdout"]  # a new command, the same order


def test_an_explicit_hash_seed_is_kept_and_the_child_is_a_fresh_interpreter(
    tmp_path: Path,
) -> None:
    (tmp_path / "seed.py").write_text("import os\nprint(os.environ['PYTHONHASHSEED'])\n")
    done = automock_command(["run", "--json", "seed.py"], cwd=tmp_path, PYTHONHASHSEED="123")
    report = json.loads(done.stdout)
    assert done.returncode == 0, report["stderr"]
    assert [r["start"] for r in report["runs"]] == ["spawn"]  # no restart: no fork
    # the child's own hash seed comes from the run's seed either way
    forked_code, forked = _command(tmp_path, "seed.py")
    assert forked_code == 0
    assert report["stdout"] == forked["stdout"]


@pytest.mark.parametrize("seed", ["7", "0x10"])
def test_seed_option_forms_still_fork(tmp_path: Path, seed: str) -> None:
    (tmp_path / "r.py").write_text("import random\nprint(random.random())\n")

    code, first = _command(tmp_path, "r.py", "--seed", seed)
    _, second = _command(tmp_path, f"--seed={seed}", "r.py")

    assert code == 0, first["stderr"]
    assert [r["start"] for r in first["runs"]] == ["fork"]  # type: ignore[index]
    assert first["stdout"] == second["stdout"]


def _environ_of_process_with(marker: bytes, deadline: float) -> dict[bytes, bytes] | None:
    while time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                block = Path(f"/proc/{entry}/environ").read_bytes()
            except OSError:
                continue
            if marker in block:
                return dict(v.partition(b"=")[::2] for v in block.split(b"\0") if v)
        time.sleep(0.02)
    return None


def test_a_forked_childs_environment_shows_in_proc_whatever_the_commands_own(
    tmp_path: Path,
) -> None:
    """What others see of the child in ``/proc/<pid>/environ`` is the fixed environment it
    started from: nothing of the command's, nothing of the plan's (those are the project's
    word, applied inside the child once it is isolated; the program sees them)."""
    marker = f"AUTOMOCK_FORK_{uuid.uuid4().hex}"
    big = {f"PLAN_VAR_{i:03d}": f"{i:03d}" * 100 for i in range(60)}  # ~18 KB
    plan = tmp_path / "plan.automock.json"
    plan.write_text(json.dumps({"automock": 1, "env": {marker: "1", **big}}))
    # the program waits on a real timeout (select is not a mocked clock) while we look at it
    (tmp_path / "wait.py").write_text(
        "import os, select\nselect.select([], [], [], 3)\n"
        f"print(os.environ[{marker!r}], os.environ['PLAN_VAR_059'][:6])\n"
    )
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PYTHONPATH": str(REPO)}
    env |= {"CALLER_SECRET": "s3cr3t", "TMPDIR": str(temp)}
    cmd = [sys.executable, "-m", "automock", "run", "--json", "--no-stable-addresses"]
    cmd += ["wait.py", "--plan", str(plan)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True)
    try:  # the child's HOME is in its workdir, under our TMPDIR
        seen = _environ_of_process_with(b"HOME=" + str(temp).encode(), time.monotonic() + 30)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    report = json.loads(out)
    assert proc.returncode == 0, report["stderr"]
    assert [r["start"] for r in report["runs"]] == ["fork"]
    assert report["stdout"] == "1 059059\n"
    assert seen is not None, "the child's environment should show its fixed environment"
    assert marker.encode() not in seen and b"PLAN_VAR_000" not in seen
    assert b"CALLER_SECRET" not in seen
    assert seen[b"TZ"] == b"UTC"
    assert b"AUTOMOCK_ENV_ROOM" not in seen
