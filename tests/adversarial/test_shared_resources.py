"""One run must not take another's resources: processes (each run has its own uid, so
``RLIMIT_NPROC`` counts only its own tasks), CPU (a cgroup per run and per lane with an equal
weight) and disk (a run's workdir is a size-limited tmpfs, not the host's temp filesystem).
Each attack is real and each check is made from outside the sandbox."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from automock.errors import EXIT_VIOLATION

from .harness import batch_attacks, marked_processes, program, reap, run_attack

REPO = Path(__file__).resolve().parents[2]


def _start_cli(name: str, *args: str, timeout: float, cwd: str) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "automock", "run", str(program(name)), "--json", "--no-save"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHASHSEED", "AUTOMOCK_SPAWN")}
    env.update(AUTOMOCK_SERVER="0", PYTHONPATH=str(REPO))
    return subprocess.Popen(
        [*argv, "--timeout", str(timeout), "--", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(predicate: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def test_a_run_holding_its_processes_leaves_another_runs_forks_alone(marker: str) -> None:
    holder, forker = marker, marker[::-1]
    with tempfile.TemporaryDirectory(prefix="automock-adv-cwd-") as scratch:
        # B first: it forks one child at a time for ~12 s; A then takes every process it may
        b = _start_cli("res_fork_loop", forker, "400", timeout=60, cwd=scratch)
        a = None
        try:
            assert _wait_for(lambda: marked_processes(forker), 30), "run B never started"
            a = _start_cli("res_hold_processes", holder, timeout=40, cwd=scratch)
            assert _wait_for(lambda: len(marked_processes(holder)) >= 40, 30), "A holds nothing"
            overlapped = bool(marked_processes(forker))  # A held its processes while B ran
            out, err = b.communicate(timeout=60)
        finally:
            for proc in (b, a):  # SIGTERM: the command ends its sandbox and cleans up
                if proc is not None and proc.poll() is None:
                    proc.terminate()
                    try:
                        proc.communicate(timeout=20)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.communicate()
            reap(marked_processes(holder))
    assert overlapped, "run B ended before run A held its processes: no overlap to test"
    report = json.loads(out)
    assert "fork failures: 0" in report["stdout"], (report["stdout"], err[-2000:])
    assert report["status"] == "passed", report["runs"][0]["detail"]
    layers = {x["name"]: x for x in report["layers"]}
    assert layers["uid"]["active"] and "this run's own" in layers["uid"]["detail"], layers["uid"]
    assert layers["cpu"]["active"], layers["cpu"]  # the run path has its cpu cgroup too


def test_a_cpu_hog_does_not_starve_the_honest_candidate_beside_it() -> None:
    hog, honest = batch_attacks([("res_cpu_hog", ("60",)), ("res_cpu_honest", ("14",))], timeout=10)
    assert hog.status == "timeout", hog.explain()
    assert honest.status == "passed", honest.explain()
    cpu = next(x for x in honest.layers if x["name"] == "cpu")
    assert cpu["active"], cpu


def _free_bytes(path: str) -> int:
    info = os.statvfs(path)
    return info.f_bavail * info.f_frsize


def test_a_run_cannot_fill_the_hosts_temp_filesystem() -> None:
    temp = tempfile.gettempdir()
    before = _free_bytes(temp)
    lowest = [before]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            lowest[0] = min(lowest[0], _free_bytes(temp))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        outcome = run_attack("res_fill_workdir", "640", timeout=60)
    finally:
        done.set()
        sampler.join()
    taken = (before - lowest[0]) / (1 << 20)
    # 640 MiB tried; the workdir's bound is 128 MiB, on a tmpfs of its own
    assert taken < 200, f"the host's temp filesystem lost {taken:.0f} MiB\n{outcome.explain()}"
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status == "violation", outcome.explain()
    assert outcome.exit_code == EXIT_VIOLATION, outcome.explain()
    assert "filled its workdir" in outcome.raw["detail"], outcome.raw["detail"]
    workdir = next(x for x in outcome.layers if x["name"] == "workdir")
    assert "MiB tmpfs of its own" in workdir["detail"], workdir
