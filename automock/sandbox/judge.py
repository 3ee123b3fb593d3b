"""The trusted side: a verdict from what the parent set up and observed.

Everything a sandboxed process writes is untrusted, its messages included.
The judge decides from what only the parent and the kernel know: the exit
status (``waitpid``), whether the parent's own wall-clock deadline passed,
the limits the parent set. A child's message adds detail (which exception,
which limit) only where the kernel agrees with it, and can never turn a
failure into a pass:

- a **program** (``automock run``, a batch program) passes only if the kernel
  says it exited 0; its message cannot say "passed" for it;
- a **(code, tests) pair** passes only on the word of its *test* process
  (:mod:`automock.sandbox.child.pair`), which never runs the candidate's code
  and whose verdict pipe the candidate process does not hold; a candidate
  that exits, crashes or answers with anything but plain data fails the pair.

Any message that is malformed, of the wrong types, or claims a status
automock never writes is ignored (and said so in the detail).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from automock.sandbox.child.status import Status, exit_code_for, signal_status

__all__ = ["judge_candidate", "judge_run", "valid_message"]

_STATUSES = frozenset(Status)


def valid_message(message: object) -> dict[str, Any] | None:
    """A child's verdict or ``done`` message if it has the shape automock writes, else None."""
    if type(message) is not dict:
        return None
    status, code = message.get("status"), message.get("exit_code")
    if type(status) is not str or status not in _STATUSES or type(code) is not int:
        return None
    detail = message.get("detail", "")
    if type(detail) is not str:
        return None
    return message


def _same_exit(claimed: int, exited: int) -> bool:
    """Does a child's claimed exit code match the kernel's? (-N and 128+N are one death by
    signal N, as init of a PID namespace reports it)."""
    return claimed == exited or (claimed < 0 and exited == 128 - claimed)


def judge_candidate(
    verdict: Mapping[str, Any] | None,
    *,
    pair: bool,
    exited: int | None,
    timed_out: bool,
    timeout: float,
    memory_mb: int | None = None,
) -> tuple[Status, int | None, str]:
    """(status, exit_code, detail) of one batch candidate.

    ``verdict`` is the child's message (None if there was none or it did not
    parse); ``exited`` the kernel's exit code (-N: signal N; None: not reaped
    yet, which the pool allows only for pairs and for verdicts that are not
    a pass); ``timed_out``: the parent's deadline passed.
    """
    message = valid_message(verdict) if verdict is not None else None
    note = "" if message is not None or verdict is None else " (the child's message was unusable)"
    program_pass = message is not None and not pair and message["status"] == Status.PASSED
    if program_pass and exited != 0:  # a program's "passed" is the kernel's exit 0, nothing else
        message, note = None, " (its message claimed a pass the exit status denies)"
    if message is not None and exited is not None:
        claimed = exit_code_for(message["status"], message["exit_code"])
        if not _same_exit(claimed, exited) and not (pair and message["status"] == Status.PASSED):
            message, note = None, " (its message disagrees with its exit status)"
    if message is not None:
        status = Status(message["status"])
        return status, exit_code_for(status, message["exit_code"]), str(message["detail"])
    if timed_out:
        return (
            Status.TIMEOUT,
            exit_code_for(Status.TIMEOUT, 0),
            f"killed after the {timeout:g} s timeout",
        )
    if exited is None:
        return Status.ERROR, None, "ended without a verdict" + note
    if exited < 0:
        status, detail = signal_status(-exited, memory_mb=memory_mb)
        return status, exit_code_for(status, exited), detail + note
    if exited == 0 and not pair:
        return Status.PASSED, 0, note.strip(" ()")
    what = "the tests' process" if pair else "the program"
    return Status.ERROR, exited, f"{what} exited with {exited} without a verdict{note}"


def judge_run(
    returncode: int,
    timed_out: bool,
    child: Mapping[str, Any] | None,
    *,
    stderr: str = "",
    cpu_used: float = 0.0,
    cpu_seconds: float | None = None,
    memory_mb: int | None = None,
    file_size_mb: int | None = None,
) -> tuple[Status, int, str]:
    """(status, exit_code, detail) of one ``automock run`` child, from its exit status;
    its ``done`` message only adds the detail, and only when its exit code is the kernel's."""
    if timed_out:
        return (
            Status.TIMEOUT,
            exit_code_for(Status.TIMEOUT, returncode),
            "wall-clock timeout; the process group was killed",
        )
    if returncode < 0:
        status, detail = signal_status(
            -returncode,
            cpu_seconds=cpu_seconds,
            cpu_used=cpu_used,
            memory_mb=memory_mb,
            file_size_mb=file_size_mb,
            stderr=stderr,
        )
        return status, exit_code_for(status, 128 - returncode), detail
    message = valid_message(child) if child is not None else None
    if message is not None and message["exit_code"] != returncode:
        message = None  # the report and the real exit status disagree: trust the kernel
    if message is None or (message["status"] == Status.PASSED) != (returncode == 0):
        status = Status.PASSED if returncode == 0 else Status.ERROR
        return status, returncode, "the program exited without reporting back (os._exit or exec)"
    status = Status(message["status"])
    return status, exit_code_for(status, returncode), str(message["detail"])
