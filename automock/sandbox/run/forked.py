"""Fork the run child from the warm ``automock run`` process instead of starting an interpreter.

A fresh interpreter per run pays for its own start-up and again for every
module the parent already imported (``json``, ``dataclasses``, the plan
model, the runtime); forking the CLI process after it has imported the
runtime shares all of that, so only isolation and the program itself are
left per run (see ``benchmarks/run_overhead.py``).

Forking is only done when the child would be indistinguishable where it
matters (:func:`can_fork`): this process is the ``automock`` command restarted
by :mod:`automock.commands.restart` (so its string-hash seed is the one the
run's seed asks for, and its environment was scrubbed of everything the CLI
does not read, so no secret sits in the memory the child inherits), no other
thread is running, and the platform is Linux. Otherwise (the Python API, tests
calling ``cli.main``) :mod:`automock.sandbox.run.spawn` starts a fresh interpreter.

Right after the fork, the child makes itself look like a fresh interpreter
started by ``subprocess`` with the same arguments as a spawned child: its own
session, ``PR_SET_PDEATHSIG``, ``/dev/null`` on stdin and pipes on stdout and
stderr, no other inherited descriptor, the fixed environment, new
``sys.std*`` text streams (UTF-8, stderr line-buffered), the signal
dispositions Python starts with, no ``atexit`` handler of the parent's. It
then runs :func:`automock.sandbox.child.program.execute` on the spec it already holds
and ends as an interpreter would: the program's non-daemon threads are
joined, its ``atexit`` handlers run, the streams are flushed. It never
returns into the parent's code.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
import time
from typing import IO, Any, NoReturn

from automock.sandbox.kernel.workdir import Workdir
from automock.sandbox.run.spawn import Spawned

__all__ = ["ForkedProcess", "can_fork", "fork_child", "warm"]


def can_fork(seed: int) -> bool:
    """May the run with ``seed`` fork from this process (see the module docstring)?"""
    if not sys.platform.startswith("linux") or os.environ.get("AUTOMOCK_SPAWN") == "1":
        return False
    if threading.active_count() != 1 or os.environ.get("AUTOMOCK_RESTARTED") != "1":
        return False  # only the restarted CLI, whose environment holds no secrets, forks
    from automock._seed import hash_seed_for

    return os.environ.get("PYTHONHASHSEED") == hash_seed_for(seed)


_warmed: list[bool] = []


def warm() -> None:
    """Import (once, in the parent) what every forked child needs."""
    if _warmed:
        return
    from automock.sandbox.child.program import warm_up

    warm_up()
    _warmed.append(True)


class ForkedProcess:
    """The parent's handle on a forked child: what :mod:`automock.sandbox.run.spawn` uses of Popen."""

    def __init__(self, pid: int, stdout: IO[bytes], stderr: IO[bytes]) -> None:
        self.pid = pid
        self.stdout: IO[bytes] | None = stdout
        self.stderr: IO[bytes] | None = stderr
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            with contextlib.suppress(ChildProcessError):
                pid, status = os.waitpid(self.pid, os.WNOHANG)
                if pid == 0:
                    return None
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            try:
                _, status = os.waitpid(self.pid, 0)
                self.returncode = os.waitstatus_to_exitcode(status)
            except ChildProcessError:  # reaped elsewhere: its status is gone
                self.returncode = -signal.SIGKILL
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)


def fork_child(work: Workdir, env: dict[str, str], spec: dict[str, Any]) -> Spawned:
    """Fork a child that runs ``spec`` in ``work`` with exactly ``env``.

    The child already holds its spec: :func:`automock.sandbox.run.watch.finish` only watches it.
    """
    started = time.perf_counter()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    result_r, result_w = os.pipe()
    go_r, go_w = os.pipe()
    parent = os.getpid()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    try:
        pid = os.fork()
    except BaseException:
        for fd in (out_r, out_w, err_r, err_w, result_r, result_w, go_r, go_w):
            os.close(fd)
        raise
    if pid == 0:  # pragma: no cover - the child (its behaviour is tested through the CLI)
        _child(work, env, spec, (out_w, err_w, result_w, go_r), parent)
    for fd in (out_w, err_w, result_w, go_r):
        os.close(fd)
    proc = ForkedProcess(pid, io.FileIO(out_r, "r"), io.FileIO(err_r, "r"))
    return Spawned(
        proc, work, spec_w=None, result_r=result_r, started=started, start="fork", go_w=go_w
    )


def _child(
    work: Workdir,
    env: dict[str, str],
    spec: dict[str, Any],
    fds: tuple[int, int, int, int],
    parent: int,
) -> NoReturn:  # pragma: no cover - runs in the forked child
    code = 70
    try:
        _become_fresh(work, env, fds, parent)
        code = _run(spec, fds[2], fds[3])
    except BaseException as exc:  # automock's own failure before or after the program
        with contextlib.suppress(BaseException):
            os.write(2, f"automock: sandbox child failed: {type(exc).__name__}: {exc}\n".encode())
    os._exit(code)


def _become_fresh(
    work: Workdir, env: dict[str, str], fds: tuple[int, int, int, int], parent: int
) -> None:  # pragma: no cover - runs in the forked child
    os.setsid()
    from automock.sandbox.kernel.syscalls import die_with_parent

    die_with_parent(parent)
    out_w, err_w, result_w, go_r = fds
    from automock.sandbox.kernel.nullin import empty_stdin

    null = empty_stdin()
    os.dup2(null, 0)
    os.dup2(out_w, 1)
    os.dup2(err_w, 2)
    keep = sorted({0, 1, 2, result_w, go_r})
    start = 3
    for fd in keep[3:]:  # close every inherited descriptor but the result and go pipes
        os.closerange(start, fd)
        start = fd + 1
    os.closerange(start, _max_fd())
    os.chdir(work.root / "src")
    from automock.sandbox.child import fresh

    fresh.environment(env, proc=True)
    fresh.install_stdio(fresh.stdio())
    fresh.signals()
    import atexit

    atexit._clear()
    sys.pycache_prefix, sys.dont_write_bytecode = None, True  # the program writes no bytecode


def _max_fd() -> int:
    try:
        return int(os.sysconf("SC_OPEN_MAX"))
    except (OSError, ValueError):
        return 65536


def _run(spec: dict[str, Any], result_fd: int, go_fd: int) -> int:  # pragma: no cover
    from automock.sandbox.child.program import execute_and_report

    os.set_inheritable(go_fd, False)
    code = execute_and_report(spec, result_fd, go_fd)
    _shutdown()
    return code


def _shutdown() -> None:  # pragma: no cover - runs in the forked child
    """What interpreter exit does before the process ends: threads, atexit, flush.

    The program's own were done under the runtime (:func:`automock.sandbox.child.program.execute`);
    this catches what was started after that, as a spawned child's interpreter exit would.
    """
    from automock.sandbox.child import fresh

    fresh.interpreter_exit()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()
