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

import math
from collections.abc import Mapping
from typing import Any

from automock.sandbox.child.status import Status, exit_code_for, signal_status

__all__ = [
    "consistent",
    "judge_candidate",
    "judge_run",
    "oom_detail",
    "valid_layers",
    "valid_message",
    "valid_report",
    "with_witness",
]

_STATUSES = frozenset(Status)
# the fields of a ``done`` message (automock.sandbox.child.program.ChildOutcome), by type
_REPORT_FIELDS: dict[str, tuple[type, ...]] = {
    "phase": (str,),
    "exit_code": (int,),
    "status": (str,),
    "exception": (str, type(None)),
    "detail": (str,),
    "accesses": (list,),
    "layers": (list,),
    "seconds": (int, float),
    "setup_seconds": (int, float),
    "extra": (dict,),
}
_ACCESS_FIELDS: dict[str, type] = {
    "kind": str,
    "api": str,
    "target": str,
    "mocked": bool,
    "fix": str,
    "served_by": str,
}
_LAYER_FIELDS: dict[str, type] = {"name": str, "active": bool, "detail": str}


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


def _exact(record: object, fields: Mapping[str, type], required: tuple[str, ...]) -> bool:
    """A dict with only ``fields`` (each of exactly its type) and all of ``required``."""
    if type(record) is not dict or not all(key in record for key in required):
        return False
    return all(key in fields and type(value) is fields[key] for key, value in record.items())


def valid_layers(value: object) -> list[dict[str, Any]] | None:
    """A list of ``LayerStatus`` dicts (name, active, detail) if ``value`` is one, else None."""
    if type(value) is not list:
        return None
    if not all(_exact(d, _LAYER_FIELDS, ("name", "active", "detail")) for d in value):
        return None
    return value


def valid_report(message: object) -> dict[str, Any] | None:
    """A run child's ``done`` message if every field has the type automock writes, else None.

    :func:`valid_message` for the verdict fields, then the rest: no unknown key, the
    accesses and layers of the right shape, finite numbers (no ``bool`` for a number).
    """
    checked = valid_message(message)
    if checked is None or checked.get("phase") != "done":
        return None
    for key, value in checked.items():
        types = _REPORT_FIELDS.get(key)
        if types is None or type(value) not in types:
            return None
        if type(value) is float and not math.isfinite(value):
            return None
    accesses = checked.get("accesses", [])
    if not all(_exact(a, _ACCESS_FIELDS, ("kind", "api")) for a in accesses):
        return None
    if valid_layers(checked.get("layers", [])) is None:
        return None
    return checked


def consistent(message: Mapping[str, Any], returncode: int) -> bool:
    """Does a run's ``done`` message agree with the kernel's exit status (a normal exit)?"""
    passed = message["status"] == Status.PASSED
    return bool(message["exit_code"] == returncode and passed == (returncode == 0))


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
    oom_kills: int = 0,
) -> tuple[Status, int | None, str]:
    """(status, exit_code, detail) of one batch candidate.

    ``verdict`` is the child's message (None if there was none or it did not
    parse); ``exited`` the kernel's exit code (-N: signal N; None: not reaped
    yet, which the pool allows only for pairs: a program's end is waited for);
    ``timed_out``: the parent's deadline passed; ``oom_kills``: processes the
    kernel's OOM killer ended in the candidate's (lane's) cgroup, which make it
    ``memory`` whatever else was seen.
    """
    if oom_kills:
        return Status.MEMORY, exit_code_for(Status.MEMORY, 0), oom_detail(memory_mb, oom_kills)
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
    unusable: str = "",
    stderr: str = "",
    cpu_used: float = 0.0,
    cpu_seconds: float | None = None,
    memory_mb: int | None = None,
    file_size_mb: int | None = None,
    oom_kills: int = 0,
) -> tuple[Status, int, str]:
    """(status, exit_code, detail) of one ``automock run`` child, from its exit status.

    Its ``done`` message (``child``) only adds the detail and names the status of a
    non-zero exit, and only when it is :func:`valid_report` and :func:`consistent` with
    the kernel's exit code. ``unusable`` says why the program's report (the messages on
    the result pipe) could not be used; the detail then says so. ``oom_kills``: processes
    the kernel's OOM killer ended in the run's memory cgroup (a failed run is then ``memory``).
    """
    note = f"the program's report was unusable: {unusable}" if unusable else ""
    if timed_out:
        detail = "wall-clock timeout; the process group was killed"
        return Status.TIMEOUT, exit_code_for(Status.TIMEOUT, returncode), _join(detail, note)
    if oom_kills:  # the kernel's count, not the program's word; even a process it forked
        detail = oom_detail(memory_mb, oom_kills)
        return Status.MEMORY, exit_code_for(Status.MEMORY, returncode), _join(detail, note)
    if returncode < 0:
        status, detail = signal_status(
            -returncode,
            cpu_seconds=cpu_seconds,
            cpu_used=cpu_used,
            memory_mb=memory_mb,
            file_size_mb=file_size_mb,
            stderr=stderr,
        )
        return status, exit_code_for(status, 128 - returncode), _join(detail, note)
    message = valid_report(child) if child is not None and not unusable else None
    if message is None or not consistent(message, returncode):
        status = Status.PASSED if returncode == 0 else Status.ERROR
        return (
            status,
            returncode,
            note or ("the program exited without reporting back (os._exit or exec)"),
        )
    status = Status(message["status"])
    return status, exit_code_for(status, returncode), str(message["detail"])


def with_witness(status: Status, code: int, detail: str, hidden: str) -> tuple[Status, int, str]:
    """A run's verdict once the kernel's counts are in: ``hidden`` (the counts contradict the
    program's report, :func:`automock.sandbox.run.witness.hidden`) turns a pass into
    ``unmocked`` (the program reached for what no mock served); any other end keeps its
    status and the detail says what was hidden."""
    if not hidden:
        return status, code, detail
    if status == Status.PASSED:
        return Status.UNMOCKED, exit_code_for(Status.UNMOCKED, code), hidden
    return status, code, _join(detail, hidden) if detail else hidden


def oom_detail(memory_mb: int | None, kills: int = 1) -> str:
    """The detail of an end by the kernel's OOM killer in the run's (or lane's) cgroup."""
    limit = f"the {memory_mb} MiB" if memory_mb else "its"
    return (
        f"out of memory: the kernel's OOM killer ended {kills} process(es) at {limit} "
        "memory cgroup limit"
    )


def _join(detail: str, note: str) -> str:
    return f"{detail}; {note}" if note else detail
