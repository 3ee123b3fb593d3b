"""How a sandboxed program or candidate ended: one :class:`Status`, one exit-code map.

``automock run`` and the batch pool used to speak two vocabularies (``ok`` /
``passed``; an unmocked access was ``unmocked`` in a run and ``violation`` in
batch). Both now classify an end here, from the same facts:

- :func:`exit_status`: the program raised ``SystemExit``;
- :func:`exception_status`: an exception escaped the program (or the tests);
- :func:`signal_status`: the process died of a signal (seen by the parent).

:func:`exit_code_for` is the one map from a status to the exit code
automock reports: the program's own, unless the sandbox or the runtime ended it.
"""

from __future__ import annotations

import errno
import signal
from enum import StrEnum

from automock.errors import (
    EXIT_MEMORY,
    EXIT_TIMEOUT,
    EXIT_UNMOCKED,
    EXIT_VIOLATION,
    UnmockedAccessError,
)
from automock.sandbox.child.refusals import refused_call

__all__ = [
    "Status",
    "exception_status",
    "exit_code_for",
    "exit_status",
    "signal_name",
    "signal_status",
]


class Status(StrEnum):
    """How a run, a candidate or a (code, tests) pair ended.

    ``passed``: ran to the end, exit 0 (for a pair: the tests returned normally);
    ``failed``: the program's own "no" (an ``AssertionError``, a non-zero
    ``sys.exit``, any exception in a pair's tests, a candidate that exited
    during its tests); ``error``: a crash (an exception in the program or in a
    pair's code, death by a signal); the rest: the sandbox or the runtime
    stopped it.
    """

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    TIMEOUT = "timeout"
    MEMORY = "memory"
    VIOLATION = "violation"
    UNMOCKED = "unmocked"


_SANDBOX_CODES: dict[str, int] = {
    Status.TIMEOUT: EXIT_TIMEOUT,
    Status.MEMORY: EXIT_MEMORY,
    Status.VIOLATION: EXIT_VIOLATION,
    Status.UNMOCKED: EXIT_UNMOCKED,
}


def exit_code_for(status: str, program_code: int) -> int:
    """The exit code automock reports for an end with ``status``: 124/125/126/5 when the
    sandbox or runtime ended it, else the program's own ``program_code``."""
    return _SANDBOX_CODES.get(status, program_code)


def exit_status(code: object) -> tuple[Status, int]:
    """Status and exit code of ``SystemExit(code)``, as ``python FILE`` exits with it
    (a non-integer code is printed on stderr by the caller and exits 1)."""
    if code is None:
        return Status.PASSED, 0
    if isinstance(code, int):  # the kernel keeps the low 8 bits: sys.exit(256) exits 0
        return (Status.FAILED, code & 0xFF) if code & 0xFF else (Status.PASSED, 0)
    return Status.FAILED, 1


def exception_status(
    exc: BaseException,
    *,
    memory_mb: int | None = None,
    processes: int | None = None,
    file_size_mb: int | None = None,
    in_tests: bool = False,
) -> tuple[Status, str]:
    """(status, detail) for an exception that escaped the program (``in_tests``: a pair's
    tests). The limits only make the detail say which limit was hit."""
    name = f"{type(exc).__name__}: {exc}".strip().rstrip(":")[:300]
    if isinstance(exc, MemoryError):
        limit = f" of {memory_mb} MiB" if memory_mb else ""
        return Status.MEMORY, f"address-space limit{limit} hit (MemoryError)"
    if isinstance(exc, UnmockedAccessError):
        return Status.UNMOCKED, f"died of UnmockedAccessError ({exc.kind} {exc.api} {exc.target})"
    refused = refused_call(exc)
    if refused is not None:
        return Status.VIOLATION, f"{name} (refused by the sandbox's seccomp filter: {refused})"
    if isinstance(exc, OSError) and exc.errno == errno.EAGAIN:
        limit = f"; processes are limited to {processes}" if processes else ""
        return Status.VIOLATION, f"process or resource limit hit ({name}){limit}"
    if isinstance(exc, OSError) and exc.errno == errno.EFBIG:
        limit = f" of {file_size_mb} MiB" if file_size_mb else ""
        return Status.VIOLATION, f"file size limit{limit} hit ({name})"
    if isinstance(exc, RuntimeError) and "can't start new thread" in str(exc):
        limit = f"; processes+threads are limited to {processes}" if processes else ""
        return Status.VIOLATION, f"thread limit hit ({name}){limit}"
    if isinstance(exc, KeyboardInterrupt):  # python FILE then dies of SIGINT
        return Status.ERROR, "killed by SIGINT (KeyboardInterrupt)"
    if isinstance(exc, AssertionError) or in_tests:
        return Status.FAILED, name
    return Status.ERROR, name


def signal_name(sig: int) -> str:
    return signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)


def signal_status(
    sig: int,
    *,
    cpu_seconds: float | None = None,
    cpu_used: float = 0.0,
    memory_mb: int | None = None,
    file_size_mb: int | None = None,
    stderr: str = "",
) -> tuple[Status, str]:
    """(status, detail) for a death by signal ``sig``, as the parent saw it."""
    name = signal_name(sig)
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu_seconds and cpu_used >= cpu_seconds):
        limit = f" of {cpu_seconds:g} s" if cpu_seconds else ""
        return Status.TIMEOUT, f"CPU time limit{limit} hit ({name})"
    if sig == signal.SIGXFSZ:
        limit = f" of {file_size_mb} MiB" if file_size_mb else ""
        return Status.VIOLATION, f"file size limit{limit} hit ({name})"
    memoryish = sig == signal.SIGKILL or "memory" in stderr.lower()
    if (
        memoryish
        and memory_mb is not None
        and sig in (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS)
    ):
        limit = f" under the {memory_mb} MiB limit" if memory_mb else ""
        return Status.MEMORY, f"killed by {name}{limit} (likely out of memory, or an external kill)"
    return Status.ERROR, f"killed by {name}"
