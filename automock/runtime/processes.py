"""Recording the processes a program starts (diagnostics: nothing is mocked or refused).

A new process runs without this runtime (a Python interpreter started inside
:class:`~automock.runtime.children.followed_children` is the exception: it
follows the plan, and is recorded as a mocked access), and any command's output
may vary. Inside :class:`recorded_processes`, starting one through
``subprocess`` (``Popen`` and everything built on it, ``os.popen`` included),
``os.system``, ``os.posix_spawn[p]`` or ``os.exec*`` records an *unmocked*
``process`` access naming the executable, with what to do about it, so the
run report lists it next to the static ``process`` touchpoint. The call then
goes ahead unchanged; the sandbox contains the process.

A process forked with ``os.fork`` (multiprocessing's ``fork`` start method
included) keeps the runtime: it is recorded as a *mocked* ``process`` access
(``os.fork``), so the report says the program forked. Multiprocessing's
``spawn`` workers are recorded by :mod:`automock.runtime.children`. The log
counts every start and fork (:attr:`~automock.runtime.events.AccessLog.process_calls`):
the parent compares the counts with what the kernel saw
(:mod:`automock.sandbox.run.starts`), so a start made behind these wrappers
(``_posixsubprocess.fork_exec``, ``posix_spawn`` through ctypes) is named as hidden.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from automock.runtime._base import Patch, Undo
from automock.runtime._imports import when_imported
from automock.runtime.children import child_environment
from automock.runtime.events import record

__all__ = ["recorded_processes"]

FIX = (
    "the new process runs without automock's runtime (real clock, unseeded randomness): "
    "call that code in-process to make it deterministic, or check its output does not "
    "depend on them"
)
_OS_CALLS = ("system", "posix_spawn", "posix_spawnp", "execv", "execve")
_inside = threading.local()  # in Popen: its own os.posix_spawn/exec is not a second access


def _program(args: Any) -> str:
    """The executable a command line names: the first word or element."""
    if isinstance(args, (str, bytes, os.PathLike)):
        text = os.fsdecode(args)
        return text.split(maxsplit=1)[0] if text.strip() else text
    try:
        first = next(iter(args))
    except (TypeError, StopIteration):
        return repr(args)[:200]
    return os.fsdecode(first) if isinstance(first, (str, bytes, os.PathLike)) else repr(first)


def _argv(args: Any, kwargs: dict[str, Any]) -> list[str]:
    """The command line ``Popen(args, **kwargs)`` runs (a shell command: its words)."""
    if isinstance(args, (str, bytes, os.PathLike)):
        text = os.fsdecode(args)
        if not kwargs.get("shell"):
            return [text]
        import shlex

        try:
            return shlex.split(text)
        except ValueError:
            return []
    try:
        return [os.fsdecode(a) for a in args]
    except TypeError:
        return []


def _recording(original: Callable[..., Any], api: str) -> Callable[..., Any]:
    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not getattr(_inside, "popen", False) and args:
            record("process", api, _program(args[0]), mocked=False, fix=FIX)
        return original(*args, **kwargs)

    return wrapper


def _patch_popen(undo: Undo, subprocess: ModuleType) -> None:
    original = subprocess.Popen.__init__

    @functools.wraps(original)
    def __init__(self: Any, args: Any, *rest: Any, **kwargs: Any) -> None:
        executable = kwargs.get("executable")
        env = (
            None if rest else child_environment(_argv(args, kwargs), executable, kwargs.get("env"))
        )
        if env is not None:  # a Python interpreter: it follows the plan
            kwargs["env"] = env
        record(
            "process",
            "subprocess.Popen",
            _program(executable if executable is not None else args),
            mocked=env is not None,
            fix="" if env is not None else FIX,
        )
        _inside.popen = True
        try:
            original(self, args, *rest, **kwargs)
        finally:
            _inside.popen = False

    undo.setattr(subprocess.Popen, "__init__", __init__)


def _recording_fork(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def fork() -> Any:
        record("process", "os.fork", mocked=True)  # the child keeps the runtime
        return original()

    return fork


class recorded_processes(Patch[None]):
    """Record every process the code starts as an unmocked ``process`` access."""

    def _start(self, undo: Undo) -> None:
        for name in _OS_CALLS:
            original = getattr(os, name, None)
            if original is not None:
                undo.setattr(os, name, _recording(original, f"os.{name}"))
        if hasattr(os, "fork"):
            undo.setattr(os, "fork", _recording_fork(os.fork))
        when_imported(undo, {"subprocess": lambda module: _patch_popen(undo, module)})
