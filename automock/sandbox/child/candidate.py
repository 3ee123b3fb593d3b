"""One batch candidate: what it is (:class:`Candidate`) and how it runs in a sandboxed child.

A *program* runs in this process as ``python FILE`` would. A *(code, tests)
pair* runs as two processes (:mod:`automock.sandbox.child.pair`): the tests
here, the candidate's code in a process of its own.

A program runs as the ``__main__`` module: a new module object in ``sys.modules``, ``sys.argv`` of
its source name, compiled with none of automock's ``__future__`` flags, its
lines in ``linecache``. So what looks a definition up by its module (pickle,
``dataclasses.KW_ONLY`` under string annotations, ``typing.get_type_hints``)
or reads its source (``inspect.getsource``, tracebacks) behaves as it would
for the file. The outcome is a ``(status, exit_code, detail)`` triple
(:class:`~automock.sandbox.child.status.Status`).
"""

from __future__ import annotations

import atexit  # imported here, in the zygote, not in each child at its exit
import contextlib
import linecache
import os
import sys
import traceback
import types
from dataclasses import dataclass
from typing import TYPE_CHECKING

from automock._serialize import JsonMixin
from automock.sandbox.child.fresh import interpreter_exit, main_module
from automock.sandbox.child.status import Status, exception_status, exit_code_for, exit_status
from automock.sandbox.child.trusted import cache_lines

if TYPE_CHECKING:
    from automock.sandbox.child.candidate_process import CandidateProcess

__all__ = ["Candidate", "fork_ahead", "run_candidate"]

_HERE = os.path.dirname(__file__)  # the child core: its frames are not the candidate's


@dataclass(frozen=True, slots=True)
class Candidate(JsonMixin):
    """One sample to run: a program, or code plus tests.

    ``index`` numbers the samples of one ``task_id`` from 0; ``source`` names
    where it came from (``file.py`` or ``samples.jsonl:12``) for messages and
    tracebacks.
    """

    task_id: str
    index: int
    code: str
    test: str | None = None
    entry_point: str | None = None
    source: str = "<candidate>"
    prompt: str | None = None  # trusted: its helpers serve the tests (a problems file's prompt)

    @property
    def is_pair(self) -> bool:
        return self.test is not None


def fork_ahead(task_fd: int, code_fd: int, *, rehearse: bool = True) -> CandidateProcess:
    """A pair's candidate process, forked before the candidate is known (a spare that
    expects a pair), which reads its code and seed from the pool on ``code_fd``: pass it
    to :func:`run_candidate`. With ``rehearse``, both processes then rehearse their side
    of a pair while they wait (:mod:`~automock.sandbox.child.rehearsal`), unless the
    candidate is already there (on ``task_fd``, where this process reads it): then it
    would only wait longer."""
    from automock.sandbox.child.candidate_process import fork_candidate_process
    from automock.sandbox.child.rehearsal import rehearse_test_side, waiting

    ahead = fork_candidate_process(_compile, _print_brief, code_fd=code_fd, rehearse=rehearse)
    if rehearse and waiting(task_fd):
        rehearse_test_side(_brief_traceback)
    return ahead


def run_candidate(
    candidate: Candidate,
    tests_fd: int | None = None,
    ahead: CandidateProcess | None = None,
) -> tuple[Status, int, str]:
    """Run a candidate in this process; return ``(status, exit_code, detail)``.

    ``tests_fd``: for a pair, where its tests are still to be read (after the fork of
    the candidate's process, which must never hold them); else its ``test`` is used.
    ``ahead``: a candidate process from :func:`fork_ahead`, which the pool sent the code
    and seed of a pair; discarded for a program.

    Exceptions are reported on stderr with their traceback, like Python does;
    then, as at interpreter exit, its non-daemon threads are waited for and its
    ``atexit`` handlers run (:func:`automock.sandbox.child.fresh.interpreter_exit`).
    """
    if ahead is not None and candidate.test is None:  # a program after all
        ahead.discard()
        ahead = None
    outcome = _run(candidate, tests_fd, ahead)
    with contextlib.suppress(BaseException):
        if candidate.test is None or _left_work():
            interpreter_exit()
    return outcome


def _left_work() -> bool:
    """Whether a pair's tests left threads or ``atexit`` handlers behind (in the test
    process: the candidate's are in its own). Most leave none; then there is nothing
    for :func:`interpreter_exit` to do, and its bookkeeping would only copy pages
    (the output is flushed with the verdict)."""
    import threading

    return threading.active_count() > 1 or atexit._ncallbacks() > 0


def _run(
    candidate: Candidate,
    tests_fd: int | None,
    ahead: CandidateProcess | None = None,
) -> tuple[Status, int, str]:
    if candidate.test is not None:  # two processes: the tests never run the candidate's code
        from automock.sandbox.child.pair import run_pair

        return run_pair(candidate, _compile, _print_brief, tests_fd, ahead)
    namespace = main_module(candidate.source).__dict__
    sys.argv = [candidate.source]
    try:
        exec(_compile(candidate.code, candidate.source), namespace)
    except SystemExit as exc:
        status, exit_code = exit_status(exc.code)
        if not isinstance(exc.code, int | None):
            print(exc.code, file=sys.stderr)
        return status, exit_code, "" if status == Status.PASSED else f"SystemExit: {exc.code}"
    except SyntaxError as exc:
        _print_exception(exc)
        return Status.ERROR, 1, f"SyntaxError: {exc.msg} (line {exc.lineno})"
    except BaseException as exc:
        with contextlib.suppress(BaseException):
            _print_exception(exc)
        status, detail = exception_status(exc)
        if isinstance(exc, KeyboardInterrupt):  # python FILE then dies of SIGINT
            return status, -2, detail
        return status, exit_code_for(status, 1), detail
    return Status.PASSED, 0, ""


def _compile(text: str, filename: str) -> types.CodeType:
    """``text`` compiled as a file of its own: no ``__future__`` flag of automock's applies
    (``dont_inherit``), and its lines are in ``linecache``, so tracebacks and
    ``inspect.getsource`` show them."""
    cache_lines(text, filename)
    return compile(text, filename, "exec", dont_inherit=True)


def _candidate_frames(exc: BaseException) -> types.TracebackType | None:
    """``exc``'s traceback from its first frame that is not the child core's."""
    tb = exc.__traceback__
    while tb is not None and os.path.dirname(tb.tb_frame.f_code.co_filename) == _HERE:
        tb = tb.tb_next
    return tb


def _print_exception(exc: BaseException) -> None:
    """The traceback Python prints, without this module's frames (a syntax error in the
    candidate itself is printed as Python does: no traceback, just where it is)."""
    traceback.print_exception(type(exc), exc, _candidate_frames(exc))


def _print_brief(exc: BaseException) -> None:
    """:func:`_print_exception` for a pair's two processes, at a fraction of its cost in a
    freshly forked process (~50 pages copied instead of ~280): the same lines, but no
    caret lines under the failing expression (Python finds them by parsing the source
    line again). Chained exceptions, notes, syntax and recursion errors get the full
    :func:`_print_exception`."""
    text = _brief_traceback(exc)
    if text is None:
        _print_exception(exc)
    else:
        sys.stderr.write(text)


def _brief_traceback(exc: BaseException) -> str | None:
    """The traceback :func:`_print_brief` prints; None where the full one is needed."""
    context = exc.__context__ is not None and not exc.__suppress_context__
    if exc.__cause__ is not None or context or getattr(exc, "__notes__", None):
        return None
    if isinstance(exc, SyntaxError | RecursionError | MemoryError):
        return None
    tb = _candidate_frames(exc)
    lines = ["Traceback (most recent call last):\n"] if tb is not None else []
    while tb is not None:
        code = tb.tb_frame.f_code
        lines.append(f'  File "{code.co_filename}", line {tb.tb_lineno}, in {code.co_name}\n')
        if text := linecache.getline(code.co_filename, tb.tb_lineno).strip():
            lines.append(f"    {text}\n")
        tb = tb.tb_next
    kind = type(exc)
    name = kind.__qualname__
    if kind.__module__ not in ("__main__", "builtins"):
        name = f"{kind.__module__}.{name}"
    try:
        message = str(exc)
    except BaseException:
        message = "<exception str() failed>"
    lines.append(f"{name}: {message}\n" if message else f"{name}\n")
    return "".join(lines)
