"""Make a forked process look like a fresh interpreter: environment, standard streams, signals.

A spawned interpreter gets these from ``exec`` and its own start-up; a forked
child (the ``automock run`` fork path, the batch zygote and its candidates)
has to replace what it inherited, so that a program cannot tell the two apart.

**Environment** (:func:`environment`): every sandboxed program gets a fixed
environment and nothing of its parent's, in the three places a program can
read it from:

- ``os.environ`` and the C environment (``getenv`` in an extension module,
  what a subprocess inherits): cleared and refilled;
- the time zone: ``TZ`` is read again (``tzset``), so ``time.localtime`` and
  ``time.tzname`` follow the new value, not the parent's;
- ``/proc/<pid>/environ``, which shows the block the process was exec'd with:
  overwritten in place when asked (``proc=True``). The block cannot grow, so
  a parent forks only when :func:`fits` says the child's environment fits
  (``automock run`` reserves room when it restarts, see
  :mod:`automock.commands.restart`); should it not fit, it is blanked, never
  left showing the parent's variables.

**Standard streams** (:func:`stdio`, :func:`install_stdio`): text streams over
fds 0-2 as CPython makes them for pipes with ``PYTHONIOENCODING=utf-8``
(buffered, named ``<stdin>``..., stderr line-buffered with
``backslashreplace``), also as ``sys.__std*__``.

**Signals** (:func:`signals`): the dispositions CPython starts with, nothing
blocked, no wakeup fd.

**``__main__``** (:func:`main_module`): the program's module as ``python FILE``
makes it, in ``sys.modules`` for as long as the process lives, so pickle,
``dataclasses``, ``typing`` and ``inspect`` find what it defines.

**Exit** (:func:`interpreter_exit`): what CPython does once the main module's
code has ended, called by the sandbox while the program still runs under the
deterministic runtime, so that late threads and ``atexit`` handlers see the
same clock and seeded generators as the rest of the program.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import os
import signal
import sys
import threading
import time
import types
from collections.abc import Mapping
from typing import Any

__all__ = [
    "Stdio",
    "environment",
    "environment_fits",
    "install_stdio",
    "interpreter_exit",
    "main_module",
    "plan_variables",
    "signals",
    "stdio",
]

Stdio = tuple[io.TextIOWrapper, io.TextIOWrapper, io.TextIOWrapper]


def environment(env: Mapping[str, str], *, proc: bool = False) -> None:
    """Replace this process's environment with exactly ``env`` (see the module docstring)."""
    if proc:
        from automock.sandbox.kernel.syscalls import libc

        libc().clearenv()  # also what C code set behind os.environ's back
    os.environ.clear()
    os.environ.update(env)
    if hasattr(time, "tzset"):
        time.tzset()
    if proc:
        _overwrite_block(env)


def plan_variables(env: Mapping[str, str]) -> None:
    """Add a plan's variables to this process's environment, once it is isolated.

    Never at start-up: ``PYTHONPATH``, ``LD_PRELOAD`` or ``PATH`` from a plan (the project's
    word) would then act on an interpreter or loader started outside every layer, as root.
    Only the program and what it starts see them. The hash seed stays the run's.
    """
    seed, zone = os.environ.get("PYTHONHASHSEED"), os.environ.get("TZ")
    os.environ.update(env)
    if seed is not None:
        os.environ["PYTHONHASHSEED"] = seed
    if os.environ.get("TZ") != zone and hasattr(time, "tzset"):
        time.tzset()


def environment_fits(env: Mapping[str, str]) -> bool:
    """Can :func:`environment` with ``proc=True`` show exactly ``env`` in ``/proc/self/environ``?"""
    area = _area()
    return area is not None and len(_block(env)) <= area[1] - area[0]


def _area() -> tuple[int, int] | None:
    """Start and end address of the block ``/proc/self/environ`` shows, if readable."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return int(fields[47]), int(fields[48])
    except (OSError, IndexError, ValueError):
        return None


def _block(env: Mapping[str, str]) -> bytes:
    return b"".join(f"{k}={v}".encode() + b"\0" for k, v in env.items())


def _overwrite_block(env: Mapping[str, str]) -> None:
    area = _area()
    if area is None or area[1] <= area[0]:
        return
    import ctypes

    start, size = area[0], area[1] - area[0]
    block = _block(env)
    data = block if len(block) <= size else b""
    ctypes.memmove(start, data, len(data))
    ctypes.memset(start + len(data), 0, size - len(data))


def stdio() -> Stdio:
    """New ``sys.stdin/stdout/stderr`` objects over fds 0, 1, 2 (whatever those are when used)."""
    return (
        _stream(0, "r", "<stdin>", "strict", False),
        _stream(1, "w", "<stdout>", "strict", False),
        _stream(2, "w", "<stderr>", "backslashreplace", True),
    )


def install_stdio(streams: Stdio) -> None:
    """Make ``streams`` this process's ``sys.std*`` and ``sys.__std*__``."""
    sys.stdin, sys.stdout, sys.stderr = streams
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams  # type: ignore[misc]


def _stream(fd: int, mode: str, name: str, errors: str, line_buffering: bool) -> io.TextIOWrapper:
    raw = io.FileIO(fd, mode, closefd=False)
    raw.name = name
    buffer: io.BufferedReader | io.BufferedWriter = (
        io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
    )
    text = io.TextIOWrapper(buffer, encoding="utf-8", errors=errors, line_buffering=line_buffering)
    text.mode = mode  # type: ignore[misc]
    return text


def signals() -> None:
    """The dispositions CPython starts with; nothing blocked, no wakeup fd."""
    signal.pthread_sigmask(signal.SIG_SETMASK, ())
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)
    started_with: dict[int, Any] = {
        signal.SIGINT: signal.default_int_handler,
        signal.SIGPIPE: signal.SIG_IGN,
        signal.SIGXFSZ: signal.SIG_IGN,
    }
    for sig in signal.Signals:
        if sig in (signal.SIGKILL, signal.SIGSTOP):
            continue
        wanted = started_with.get(sig, signal.SIG_DFL)
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            if signal.getsignal(sig) != wanted:
                signal.signal(sig, wanted)


def main_module(filename: str, *, loader: Any = None) -> types.ModuleType:
    """A new ``__main__`` module for the code of ``filename``, installed in ``sys.modules``.

    ``loader`` (a file's ``SourceFileLoader``) is set with ``__cached__ = None``, as
    ``python FILE`` does; code given as a string has neither.
    """
    module = types.ModuleType("__main__")
    module.__file__ = filename
    module.__builtins__ = builtins  # type: ignore[attr-defined]
    if loader is not None:
        module.__loader__ = loader
        module.__cached__ = None  # type: ignore[attr-defined]
    sys.modules["__main__"] = module
    return module


def interpreter_exit() -> None:
    """Run threading's exit hooks and wait for every non-daemon thread, then run the
    ``atexit`` handlers (last registered first; each runs once), as CPython does at exit.

    The standard streams are flushed first: should a thread never end, what the program
    printed is still in the report of the run that timed out.
    """
    import atexit

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()
    with contextlib.suppress(BaseException):
        threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
