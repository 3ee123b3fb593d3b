"""A pair's candidate process: the judged code loads here and answers calls, nothing more.

The test process (:mod:`automock.sandbox.child.pair`) forks it: either when the
candidate arrives, or ahead of it, while the sandbox waits for its candidate (a
spare the pool expects to get a pair). Forked ahead, the process waits on a pipe
of its own from the pool (its *code pipe*, which the test process closes after
the fork) for one ``("load", code, source, seed)`` message (trusted, and carrying
only the candidate's own code and the sample's seed), re-seeds the runtime with
that seed exactly as the test process does, and goes on as if forked then: the
fork (~1 ms) and the closing of descriptors are out of the pair's round trip, and
it loads its code while the test process wakes and reads its tests, not after.
Either way the process closes every fd but its stdio, its two channel ends and its
code pipe, and never holds the tests: they are read by the test process after the
fork.
"""

from __future__ import annotations

import builtins
import contextlib
import os
import signal
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from automock.sandbox.child.channel import (
    NotPlainData,
    decode,
    encode,
    read_frame,
    write_frame,
)
from automock.sandbox.child.rehearsal import rehearse_candidate_side, waiting

__all__ = ["CandidateProcess", "dumpable", "fork_candidate_process", "set_dumpable", "warm"]

_REQ_FD, _REP_FD = 3, 4  # the candidate process's channel ends, after it tidied its fds
_CODE_FD = 5  # and its code pipe from the pool, when forked ahead
_MAX_NAMES = 10_000
_PR_GET_DUMPABLE, _PR_SET_DUMPABLE = 3, 4
_LIBC_FORK: list[Callable[[], int]] = []  # libc's fork, looked up in the pool's zygote: warm()


@dataclass
class CandidateProcess:
    """The test process's handle on its candidate's process and its channel ends."""

    pid: int
    req_w: int
    rep_r: int
    was_dumpable: int = 0  # this process's PR_GET_DUMPABLE before the fork

    def discard(self) -> None:
        """Kill and reap it (the candidate was a program, or its code was not sent to it);
        this process is dumpable again as it was before the fork."""
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        for fd in (self.req_w, self.rep_r):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            set_dumpable(bool(self.was_dumpable))


def fork_candidate_process(
    compile_source: Callable[[str, str], types.CodeType],
    print_exception: Callable[[BaseException], None],
    candidate: Any = None,
    *,
    code_fd: int | None = None,
    rehearse: bool = True,
) -> CandidateProcess:
    """Fork the candidate's process: for ``candidate``, or ahead of it (``candidate`` None),
    waiting for its code on ``code_fd`` (the pool's code pipe, closed here after the fork)
    and rehearsing meanwhile if ``rehearse`` (:mod:`~automock.sandbox.child.rehearsal`).

    This process (the test process) makes itself non-dumpable first, so the candidate,
    with the same uid, can neither trace it nor read its memory or fds through ``/proc``.
    """
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    was = dumpable()
    with contextlib.suppress(OSError):  # before the fork: no window for the candidate
        set_dumpable(False)
    # libc's fork when single-threaded: Python's at-fork hooks would reseed ``random`` (the
    # candidate continues the seeded stream) and touch (copy) many pages
    pid = _fork_function()()
    if pid == 0:
        code = 0
        try:
            _tidy_fds(req_r, rep_w, code_fd)
            _candidate_main(candidate, compile_source, print_exception, rehearse)
        except BaseException:
            code = 1
        finally:
            _flush()
            os._exit(code)
    for fd in (req_r, rep_w) if code_fd is None else (req_r, rep_w, code_fd):
        os.close(fd)
    return CandidateProcess(pid, req_w, rep_r, was_dumpable=was)


def warm() -> None:
    """Look libc's ``fork`` up once, in the pool's zygote (single-threaded): each test
    process then forks its candidate's process without the lookup (a ctypes library and
    function object: ~0.2 ms and ~20 pages copied in a freshly forked process)."""
    from automock.sandbox.kernel.syscalls import raw_fork

    fork = raw_fork()
    _LIBC_FORK[:] = [fork] if fork is not None else []


def _fork_function() -> Callable[[], int]:
    """libc's fork while this process has one thread (:func:`~automock.sandbox.kernel.
    syscalls.raw_fork` says why), else ``os.fork``."""
    try:
        if _LIBC_FORK and len(os.listdir("/proc/self/task")) == 1:
            return _LIBC_FORK[0]
    except OSError:
        pass
    from automock.sandbox.kernel.syscalls import raw_fork

    return raw_fork() or os.fork


def _candidate_main(
    candidate: Any,
    compile_source: Callable[[str, str], types.CodeType],
    print_exception: Callable[[BaseException], None],
    rehearse: bool = True,
) -> None:
    if candidate is not None:
        _serve(candidate.code, candidate.source, compile_source, print_exception)
        return
    if rehearse and waiting(_CODE_FD):  # its code has not come yet: rehearse meanwhile
        rehearse_candidate_side(compile_source)
    raw = read_frame(_CODE_FD)  # from the pool
    os.close(_CODE_FD)
    if raw is None:  # not needed after all (a program came, or the code went elsewhere)
        return
    _, code, source, seed = decode(raw)
    if seed is not None:  # as the test process does with the candidate
        from automock.runtime.entropy import reseed

        reseed(seed)
    _serve(code, source, compile_source, print_exception)


def dumpable() -> int:
    """``PR_GET_DUMPABLE`` of this process (0 when it cannot be read)."""
    from automock.sandbox.kernel.syscalls import libc

    return max(0, int(libc().prctl(_PR_GET_DUMPABLE, 0, 0, 0, 0)))


def set_dumpable(value: bool) -> None:
    """``PR_SET_DUMPABLE``: whether processes of the same uid may trace or read this one."""
    from automock.sandbox.kernel.syscalls import prctl

    prctl(_PR_SET_DUMPABLE, int(value))


def _tidy_fds(req_r: int, rep_w: int, code_fd: int | None) -> None:
    """Keep stdio, the two channel ends and the code pipe (moved to 3, 4 and 5); close the
    rest, including the test process's verdict pipe."""
    import fcntl

    kept = (req_r, rep_w) if code_fd is None else (req_r, rep_w, code_fd)
    for target, fd in enumerate([fcntl.fcntl(fd, fcntl.F_DUPFD, 64) for fd in kept], _REQ_FD):
        os.dup2(fd, target)
    os.closerange(_REQ_FD + len(kept), 65536)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()


def _send(message: tuple[Any, ...]) -> None:
    try:
        payload = encode(message)
    except NotPlainData as exc:
        payload = encode(("bad", str(exc)))
    _flush()  # what the candidate printed reaches the output before its answer
    write_frame(_REP_FD, payload)


def _serve(
    code: str,
    source: str,
    compile_source: Callable[[str, str], types.CodeType],
    print_exception: Callable[[BaseException], None],
) -> None:
    """The candidate process: load the code, say which functions it defines, answer calls."""
    module = types.ModuleType("__candidate__")
    module.__builtins__ = builtins  # type: ignore[attr-defined]
    module.__file__ = source
    sys.modules["__candidate__"] = module
    sys.argv = [source]
    namespace = module.__dict__
    try:
        exec(compile_source(code, source), namespace)
    except (SystemExit, KeyboardInterrupt) as exc:
        _send(("exited", f"{type(exc).__name__}: {exc}"[:200]))
        return
    except BaseException as exc:
        with contextlib.suppress(BaseException):
            print_exception(exc)
        _send(("failed", f"{type(exc).__name__}: {exc}"[:300]))
        return
    names = [n for n, v in list(namespace.items()) if not n.startswith("__") and callable(v)]
    _send(("ready", names[:_MAX_NAMES]))
    while (raw := read_frame(_REQ_FD)) is not None:
        _, name, args, kwargs = decode(raw)
        function = namespace.get(name)
        try:
            if not callable(function):
                raise NameError(f"name {name!r} is not defined")
            result = function(*args, **kwargs)
        except (SystemExit, KeyboardInterrupt, GeneratorExit) as exc:
            _send(("exited", f"{type(exc).__name__}: {exc}"[:200]))
            return
        except BaseException as exc:
            _send(("raise", type(exc).__name__, _text(exc)))
            continue
        _send(("ok", result))


def _text(exc: BaseException) -> str:
    try:
        return str(exc)[:2000]
    except BaseException:
        return "<exception text unavailable>"
