"""Processes the code starts are recorded as unmocked ``process`` accesses (nothing refused)."""

from __future__ import annotations

import os
import subprocess
import sys

from automock.plan.model import Plan
from automock.runtime import RuntimeSession, deterministic
from automock.runtime.processes import FIX


def _processes(session: RuntimeSession) -> list[tuple[str, str, bool]]:
    return [(a.api, a.target, a.mocked) for a in session.log.accesses if a.kind == "process"]


def test_each_way_of_starting_a_process_is_recorded_once_and_still_runs() -> None:
    with deterministic(Plan()) as session:
        done = subprocess.run([sys.executable, "-c", "print('child')"], capture_output=True)
        out = subprocess.check_output("echo shell", shell=True)
        status = os.system("true")
        with os.popen("echo popen") as pipe:
            piped = pipe.read()

    assert (done.stdout, out, status, piped) == (b"child\n", b"shell\n", 0, "popen\n")
    assert _processes(session) == [
        ("subprocess.Popen", sys.executable, False),
        ("subprocess.Popen", "echo", False),
        ("os.system", "true", False),
    ]  # os.popen goes through Popen: its "echo" is already there (deduplicated)
    assert all(a.fix == FIX for a in session.log.accesses if a.kind == "process")


def test_leaving_the_runtime_puts_the_originals_back() -> None:
    before = (subprocess.Popen.__init__, os.system, os.execv, os.posix_spawn)
    with deterministic(Plan()):
        assert os.system is not before[1]
    assert (subprocess.Popen.__init__, os.system, os.execv, os.posix_spawn) == before
