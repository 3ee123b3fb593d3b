"""The parent's record of one forked batch child, and how it becomes a result.

A :class:`Child` is a spare (isolated, waiting for its candidate) or a running
candidate: its pid, worker lane, pipes and what they have delivered so far.
:func:`result_of` turns it into a :class:`~automock.sandbox.batch.task.CandidateResult`
from the child's own verdict when there is one, else from how it ended
(timeout, a signal, an exit without a verdict).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

from automock.errors import EXIT_MEMORY, EXIT_TIMEOUT
from automock.sandbox.batch.candidates import Candidate
from automock.sandbox.batch.task import STATUSES, CandidateResult, signal_status, verdict_exit_code

__all__ = ["Child", "result_of", "verdict_of"]


@dataclass
class Child:
    """One forked child: a spare (isolated, waiting for its candidate) or a running one."""

    pid: int
    lane: int
    fds: dict[int, str]  # read fd -> "out" | "err" | "res"
    task_w: int | None  # where a spare receives its candidate (None once sent)
    candidate: Candidate | None = None
    slot: int = -1
    started: float = 0.0
    deadline: float = 0.0
    pidfd: int | None = None
    buffers: dict[str, bytearray] = field(
        default_factory=lambda: {"out": bytearray(), "err": bytearray(), "res": bytearray()}
    )
    dropped: dict[str, int] = field(default_factory=lambda: {"out": 0, "err": 0, "res": 0})
    timed_out: bool = False
    wait_status: int = 0
    reaped: bool = False

    def take(self, fd: int, data: bytes, cap: int) -> None:
        """Keep what pipe ``fd`` delivered, up to ``cap`` bytes in all; count the rest."""
        name = self.fds[fd]
        buf = self.buffers[name]
        room = max(0, cap - len(buf))
        buf += data[:room]
        self.dropped[name] += len(data) - min(room, len(data))


def verdict_of(run: Child) -> dict[str, Any]:
    """The child's verdict, once complete (empty while missing or partial)."""
    try:
        loaded = json.loads(bytes(run.buffers["res"]) or b"{}")
    except ValueError:
        return {}
    return loaded if isinstance(loaded, dict) and "status" in loaded else {}


def _text(run: Child, name: str) -> str:
    text = run.buffers[name].decode("utf-8", "replace")
    if run.dropped[name]:
        text += f"\n[automock: output truncated, {run.dropped[name]} more bytes dropped]"
    return text


def result_of(run: Child, timeout: float) -> CandidateResult:
    assert run.candidate is not None
    status_word = run.wait_status
    duration = (time.monotonic() - run.started) * 1000
    verdict = verdict_of(run)
    exited: int | None = None  # what the kernel says, if the child was reaped by now
    if run.reaped and os.WIFEXITED(status_word):
        exited = os.WEXITSTATUS(status_word)
    elif run.reaped and os.WIFSIGNALED(status_word):
        exited = -os.WTERMSIG(status_word)
    # with a verdict, the code it implies whether or not the child was reaped yet (they agree,
    # but for a death by a signal that init of a PID namespace reports: -N, exiting 128 + N)
    # the verdict pipe is writable by the candidate: its exit_code may be anything
    claimed = verdict.get("exit_code", 1)
    claimed = claimed if type(claimed) is int else 1
    exit_code = verdict_exit_code(str(verdict["status"]), claimed) if verdict else exited
    status, detail = str(verdict.get("status", "error")), str(verdict.get("detail", ""))
    if verdict and status not in STATUSES:
        status, detail = "error", f"invalid verdict status {status[:40]!r} from the child"
        exit_code = exited if exited is not None else claimed
    elif status == "passed" and exited not in (None, 0):
        status, detail = "error", f"verdict says passed but the child exited with {exited}"
        exit_code = exited
    if run.timed_out and not verdict:
        status, exit_code, detail = (
            "timeout",
            EXIT_TIMEOUT,
            f"killed after the {timeout:g} s timeout",
        )
    elif not verdict:
        status, detail = signal_status(exit_code)
        if status == "timeout":
            exit_code = EXIT_TIMEOUT
        elif status == "memory":
            exit_code = EXIT_MEMORY
    return CandidateResult(
        task_id=run.candidate.task_id,
        index=run.candidate.index,
        status=status,
        exit_code=exit_code,
        stdout=_text(run, "out"),
        stderr=_text(run, "err"),
        duration_ms=round(duration, 3),
        layers=tuple(verdict.get("layers", ())),
        detail=detail,
    )
