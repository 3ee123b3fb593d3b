"""Running one batch candidate's code in this process, as ``python FILE`` would.

The candidate's code (and, for a (code, tests) pair, its tests) runs as the
``__main__`` module: a new module object in ``sys.modules``, ``sys.argv`` of
its source name, compiled with none of automock's ``__future__`` flags, its
lines in ``linecache``. So what looks a definition up by its module (pickle,
``dataclasses.KW_ONLY`` under string annotations, ``typing.get_type_hints``)
or reads its source (``inspect.getsource``, tracebacks) behaves as it would
for the file. The outcome is a ``(status, exit_code, detail)`` triple (the
statuses are listed in :mod:`automock.sandbox.batch.task`).
"""

from __future__ import annotations

import contextlib
import errno
import linecache
import sys
import traceback
import types

from automock.errors import EXIT_MEMORY, EXIT_VIOLATION, UnmockedAccessError
from automock.sandbox.batch.candidates import Candidate
from automock.sandbox.child.fresh import interpreter_exit, main_module

__all__ = ["run_candidate"]


def _exit_status(exc: SystemExit) -> tuple[str, int]:
    code = exc.code
    if code is None or code == 0:
        return "passed", 0
    if isinstance(code, int):
        return "failed", code & 0xFF or 1
    print(code, file=sys.stderr)
    return "failed", 1


def _classify(exc: BaseException, phase: str) -> tuple[str, int, str]:
    detail = f"{type(exc).__name__}: {exc}".strip().rstrip(":")
    if isinstance(exc, MemoryError):
        return "memory", EXIT_MEMORY, "MemoryError (address-space limit)"
    if isinstance(exc, UnmockedAccessError):
        return "violation", EXIT_VIOLATION, detail
    if isinstance(exc, BlockingIOError) and exc.errno == errno.EAGAIN:
        return "violation", EXIT_VIOLATION, f"{detail} (process or resource limit)"
    if isinstance(exc, RuntimeError) and "can't start new thread" in str(exc):
        return "violation", EXIT_VIOLATION, f"{detail} (process limit: threads count too)"
    if isinstance(exc, KeyboardInterrupt):  # python FILE then dies of SIGINT: as a signal death
        return "error", -2, "killed by SIGINT (KeyboardInterrupt)"
    if isinstance(exc, AssertionError) or phase == "test":
        return "failed", 1, detail
    return "error", 1, detail


def run_candidate(candidate: Candidate) -> tuple[str, int, str]:
    """Run a candidate in this process; return ``(status, exit_code, detail)``.

    Exceptions are reported on stderr with their traceback, like Python does;
    then, as at interpreter exit, its non-daemon threads are waited for and its
    ``atexit`` handlers run (:func:`automock.sandbox.child.fresh.interpreter_exit`).
    """
    outcome = _run(candidate)
    with contextlib.suppress(BaseException):
        interpreter_exit()
    return outcome


def _run(candidate: Candidate) -> tuple[str, int, str]:
    namespace = main_module(candidate.source).__dict__
    sys.argv = [candidate.source]
    phase = "code"
    try:
        exec(_compile(candidate.code, candidate.source), namespace)
        if candidate.test is not None:
            phase = "test"
            exec(_compile(candidate.test, f"{candidate.source} (test)"), namespace)
            check = namespace.get("check")
            if candidate.entry_point and callable(check):
                if candidate.entry_point not in namespace:
                    return "failed", 1, f"entry point {candidate.entry_point!r} is not defined"
                check(namespace[candidate.entry_point])
    except SystemExit as exc:
        status, exit_code = _exit_status(exc)
        return status, exit_code, "" if status == "passed" else f"SystemExit: {exc.code}"
    except SyntaxError as exc:
        _print_exception(exc)
        return "error", 1, f"SyntaxError: {exc.msg} (line {exc.lineno})"
    except BaseException as exc:
        with contextlib.suppress(BaseException):
            _print_exception(exc)
        return _classify(exc, phase)
    return "passed", 0, ""


def _compile(text: str, filename: str) -> types.CodeType:
    """``text`` compiled as a file of its own: no ``__future__`` flag of automock's applies
    (``dont_inherit``), and its lines are in ``linecache``, so tracebacks and
    ``inspect.getsource`` show them."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    linecache.cache[filename] = (len(text), None, lines, filename)
    return compile(text, filename, "exec", dont_inherit=True)


def _print_exception(exc: BaseException) -> None:
    """The traceback Python prints, without this module's frames (a syntax error in the
    candidate itself is printed as Python does: no traceback, just where it is)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb)
