"""Spawning one sandbox child: a fresh interpreter for a single run.

:func:`spawn` starts ``python -s -P -c <bootstrap> SPEC_FD RESULT_FD PID GO_FD AHEAD`` at once, in its
own session with the fixed environment
(:func:`automock.sandbox.kernel.environment.fixed_environment`, nothing inherited) and stdin
closed; the child warms its imports while the parent is
still scanning and drafting, then waits for the spec on a pipe.
:func:`automock.sandbox.run.watch.finish` sends it and watches the run.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

import automock
from automock.sandbox.kernel.addresses import fixed_layout, padded
from automock.sandbox.kernel.cgroup import Cgroup
from automock.sandbox.kernel.workdir import Workdir

__all__ = ["PACKAGE_ROOT", "ChildProcess", "Spawned", "spawn"]

PACKAGE_ROOT = str(Path(automock.__file__).resolve().parent.parent)
_BOOTSTRAP = (
    "import sys; sys.path.insert(0, {root!r}); {bytecode}"
    "from automock.sandbox.run.ending import main; main()"  # the child's main, a quick exit
)
# until the child has warmed up: its imports read and write bytecode under this prefix
_BYTECODE = "sys.pycache_prefix = {prefix!r}; sys.dont_write_bytecode = False; "


class ChildProcess(Protocol):
    """What :func:`automock.sandbox.run.watch.finish` uses of a child: a ``subprocess.Popen`` or a forked child's handle."""

    pid: int
    returncode: Any
    stdout: IO[bytes] | None
    stderr: IO[bytes] | None

    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...
    def kill(self) -> None: ...


def _bytecode_cache() -> str | None:
    """A private bytecode cache for the child's own start-up, when automock has no ``.pyc``.

    A checkout run with ``PYTHONDONTWRITEBYTECODE`` (or a read-only install) has no
    bytecode, so every child would compile automock's modules again. The child then
    reads and writes bytecode under ``$XDG_CACHE_HOME/automock/pycache`` (default
    ``~/.cache``) until it has warmed up, before any isolation or program code. The
    directory is used only if it is ours and nobody else can write to it.
    """
    import importlib.util

    if os.path.exists(importlib.util.cache_from_source(__file__)):
        return None  # installed with bytecode: nothing to gain
    from automock._cache import user_cache_dir

    prefix = user_cache_dir("pycache")
    try:
        os.makedirs(prefix, mode=0o700, exist_ok=True)
        info = os.stat(prefix)
    except OSError:
        return None
    if info.st_uid != os.geteuid() or info.st_mode & 0o022:
        return None
    return prefix


# modules every child imports (a sample: missing bytecode for any means a cold cache)
_ALWAYS_IMPORTED = frozenset(
    {
        "/errors",
        "plan/model",
        "runtime/__init__",
        "runtime/clock",
        "runtime/entropy",
        "runtime/children",
        "sandbox/child/program",
        "sandbox/child/fresh",
        "sandbox/kernel/isolation",
        "sandbox/run/ending",
    }
)


def _cold(prefix: str) -> bool:
    """Would a child compile some of automock's modules (none cached under ``prefix``, or stale)?

    A child that compiles allocates differently from one that loads bytecode, so the first
    run after automock changed would not start from the same allocation history as the next.
    """
    tag = sys.implementation.cache_tag
    base = Path(PACKAGE_ROOT) / "automock"
    for package in ("", "plan", "runtime", "sandbox/child", "sandbox/kernel", "sandbox/run"):
        for source in (base / package).glob("*.py"):
            cached = Path(prefix, str(source.parent).lstrip(os.sep), f"{source.stem}.{tag}.pyc")
            try:
                if cached.stat().st_mtime < source.stat().st_mtime:
                    return True  # stale
            except OSError:  # never compiled: cold only if every child imports it
                if f"{package}/{source.stem}" in _ALWAYS_IMPORTED:
                    return True
    return False


def _warm_cache(prefix: str, env: dict[str, str]) -> None:
    """Compile what a child imports into ``prefix`` once, in a throw-away interpreter."""
    import subprocess

    code = _BOOTSTRAP.format(root=PACKAGE_ROOT, bytecode=_BYTECODE.format(prefix=prefix)).replace(
        "run.ending import main; main()",
        "child.program import warm_up; warm_up(); import automock.sandbox.run.ending",
    )
    subprocess.run(
        [sys.executable, "-s", "-P", "-c", code],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
        timeout=60,
    )


@dataclass
class Spawned:
    """A child that is starting up: waiting for its spec on ``spec_w``, or (forked) holding it."""

    proc: ChildProcess
    work: Workdir
    spec_w: int | None
    result_r: int
    started: float
    start: str = "spawn"  # or "fork" (automock.sandbox.run.forked), "spare" (.spare)
    go_w: int | None = None  # one byte here lets the child run the program (after observing it)
    cgroup: Cgroup | None = None  # made ahead with the default limits, the child moved in (.spare)
    fill: Callable[[], Workdir] | None = None  # fills ``work`` once the spec is sent (.spare)
    ahead: bool = False  # its namespaces entered before the spec (see spawn)


def spawn(
    work: Workdir, env: dict[str, str], *, stable: bool = False, ahead: bool = False
) -> Spawned:
    """Start the child interpreter for one run in ``work``; it waits for :func:`finish`.

    ``stable``: with ASLR off (:mod:`automock.sandbox.kernel.addresses`), so every
    run starts from the same address layout. ``ahead``: for a run with the network denied
    and no extra read paths, the child enters its namespaces (network, IPC, UTS, mounts,
    PID) before the spec comes (:func:`automock.sandbox.kernel.isolation.enter_namespaces`).
    """
    started = time.perf_counter()
    prefix = _bytecode_cache()
    if stable and prefix is not None and _cold(prefix):
        _warm_cache(prefix, env)
    spec_r, spec_w = os.pipe()
    result_r, result_w = os.pipe()
    go_r, go_w = os.pipe()
    try:
        cmd = [
            sys.executable,
            "-s",
            "-P",
            "-c",
            _BOOTSTRAP.format(
                root=PACKAGE_ROOT,
                bytecode=_BYTECODE.format(prefix=prefix) if prefix is not None else "",
            ),
            padded(spec_r),  # fixed widths: the same start-up allocations every time
            padded(result_w),
            padded(os.getpid()),  # the child dies with us (PR_SET_PDEATHSIG)
            padded(go_r),  # it waits here after isolating, until we observed it
            "1" if ahead else "0",
        ]
        import subprocess  # only this path starts an interpreter (the command forks)

        with fixed_layout(stable):
            proc = _popen(subprocess, cmd, (spec_r, result_w, go_r), env, work)
    except BaseException:
        for fd in (spec_w, result_r, go_w):
            os.close(fd)
        raise
    finally:
        for fd in (spec_r, result_w, go_r):
            os.close(fd)
    return Spawned(
        proc=proc,
        work=work,
        spec_w=spec_w,
        result_r=result_r,
        started=started,
        go_w=go_w,
        ahead=ahead,
    )


def _popen(
    subprocess: Any, cmd: list[str], fds: tuple[int, ...], env: dict[str, str], work: Workdir
) -> ChildProcess:
    from automock.sandbox.kernel.nullin import empty_stdin

    stdin = empty_stdin()
    try:
        proc: ChildProcess = subprocess.Popen(
            cmd,
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=fds,
            start_new_session=True,
            env=env,
            cwd=work.root / "src",
        )
    finally:
        os.close(stdin)
    return proc
