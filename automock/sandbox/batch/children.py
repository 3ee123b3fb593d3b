"""The parent's record of one forked batch child, and how it becomes a result.

A :class:`Child` is a spare (isolated, waiting for its candidate) or a running
candidate: its pid, worker lane, pipes and what they have delivered so far.
:func:`result_of` turns it into a :class:`~automock.sandbox.batch.task.CandidateResult`
from the child's own verdict when there is one, else from how it ended
(timeout, a signal, an exit without a verdict).
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import time
from dataclasses import dataclass, field
from typing import Any

from automock.sandbox.batch.task import CandidateResult, sample_seed
from automock.sandbox.child.candidate import Candidate
from automock.sandbox.judge import judge_candidate

__all__ = [
    "Child",
    "drain",
    "exit_code_of",
    "needs_exit_status",
    "pair_done",
    "read_ready",
    "result_of",
    "verdict_of",
]

CHUNK = 65536  # one read; also the bound on a verdict (the result pipe)


@dataclass
class Child:
    """One forked child: a spare (isolated, waiting for its candidate) or a running one."""

    pid: int
    lane: int
    fds: dict[int, str]  # read fd -> "out" | "err" | "res"
    task_w: int | None  # where a spare receives its candidate (None once sent)
    code_w: int | None = None  # a pair's spare: where its candidate's process gets the code
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
    # the kernel showed it, and all it forked, in its lane's cgroup: it stays in (only root
    # moves processes, and a spare runs automock's code until its candidate comes)
    confined: bool = False
    # its time layer as the pool saw it from outside (Spawner.observe_time), if it did
    time_layer: dict[str, Any] | None = None
    # the lane's network namespace it was forked to join: (its /proc link, its use), and its
    # network layer as the pool saw it from outside (LaneNetworks.observe), if it did
    network: tuple[str, int] | None = None
    network_layer: dict[str, Any] | None = None

    def close_task(self) -> None:
        """Close the pipes a spare gets its candidate on (it is sent, or it is not needed)."""
        for fd in (self.task_w, self.code_w):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.task_w = self.code_w = None

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
    except (ValueError, RecursionError):
        return {}
    return loaded if isinstance(loaded, dict) and "status" in loaded else {}


def _text(run: Child, name: str) -> str:
    text = run.buffers[name].decode("utf-8", "replace")
    if run.dropped[name]:
        text += f"\n[automock: output truncated, {run.dropped[name]} more bytes dropped]"
    return text


def exit_code_of(run: Child) -> int | None:
    """What the kernel says about the child's end, if it was reaped by now (-N: signal N)."""
    if run.reaped and os.WIFEXITED(run.wait_status):
        return os.WEXITSTATUS(run.wait_status)
    if run.reaped and os.WIFSIGNALED(run.wait_status):
        return -os.WTERMSIG(run.wait_status)
    return None


def needs_exit_status(run: Child) -> bool:
    """Must the pool wait for the exit status before judging? For a program, yes: its
    verdict is the kernel's exit status, its message only details it. A pair's verdict
    comes from its test process, which the candidate cannot write for
    (:mod:`automock.sandbox.judge`)."""
    assert run.candidate is not None
    return not run.candidate.is_pair


def pair_done(run: Child) -> bool:
    """Whether a pair's verdict and all its output are in, without waiting for the end of
    its output pipes. The test process flushes its output, writes its verdict and closes
    its three pipes, the verdict's last (end of file there); its candidate's process
    flushed what it printed before each answer, all of which came before the verdict. So
    what is buffered in the output pipes then (read by :func:`drain`) is the pair's
    output: the pool need not wait for the candidate's process to take its quit and
    close its ends (a wake-up on a busy machine), and what it would print after its last
    answer is not the tests' business (:meth:`automock.sandbox.child.pair.Remote.close`)."""
    return not needs_exit_status(run) and "res" not in run.fds.values() and bool(verdict_of(run))


def result_of(
    run: Child,
    timeout: float,
    memory_mb: int | None = None,
    *,
    batch_seed: int = 0,
    cgroup: tuple[list[dict[str, Any]], int] | None = None,
) -> CandidateResult:
    """``cgroup``: the lane's cgroup layers (memory and pids, cpu) and the OOM kills in it during the candidate
    (any makes it ``memory``: the kernel's count, not the candidate's word)."""
    assert run.candidate is not None
    duration = (time.monotonic() - run.started) * 1000
    verdict = verdict_of(run)
    status, exit_code, detail = judge_candidate(
        verdict or None,
        pair=run.candidate.is_pair,
        exited=exit_code_of(run),
        timed_out=run.timed_out,
        timeout=timeout,
        memory_mb=memory_mb,
        oom_kills=cgroup[1] if cgroup else 0,
    )
    layers = verdict.get("layers", ())
    layers = [*(layers if type(layers) is list else ()), *(cgroup[0] if cgroup else ())]
    if run.time_layer is not None:  # what the pool saw, in place of the child's word
        layers = [run.time_layer if _named(x, "time") else x for x in layers]
    if run.network_layer is not None:
        layers = [run.network_layer if _named(x, "network") else x for x in layers]
    return CandidateResult(
        task_id=run.candidate.task_id,
        index=run.candidate.index,
        status=status,
        exit_code=exit_code,
        stdout=_text(run, "out"),
        stderr=_text(run, "err"),
        duration_ms=round(duration, 3),
        layers=tuple(layers),
        detail=detail,
        seed=sample_seed(batch_seed, run.candidate.task_id, run.candidate.index),
    )


def _named(layer: object, name: str) -> bool:
    return isinstance(layer, dict) and layer.get("name") == name


def read_ready(sel: selectors.BaseSelector, run: Child, fd: int, output_bytes: int) -> None:
    """One read per readiness event (the selector reports the fd again if more is left);
    ``output_bytes``: what is kept of stdout and of stderr."""
    try:
        data = os.read(fd, CHUNK)
    except BlockingIOError:
        return
    except OSError:
        data = b""
    _consume(sel, run, fd, data, output_bytes)


def drain(sel: selectors.BaseSelector, run: Child, output_bytes: int) -> None:
    """Read what is buffered on ``run``'s pipes (non-blocking), then close them."""
    for fd in list(run.fds):
        while True:
            try:
                data = os.read(fd, CHUNK)
            except OSError:  # BlockingIOError: nothing more buffered
                data = b""
            if not _consume(sel, run, fd, data, output_bytes):
                break


def _consume(
    sel: selectors.BaseSelector, run: Child, fd: int, data: bytes, output_bytes: int
) -> bool:
    """Keep ``data`` from ``fd``, or close ``fd`` at end of file; is ``fd`` still open?"""
    if not data:
        sel.unregister(fd)
        os.close(fd)
        del run.fds[fd]
        return False
    run.take(fd, data, CHUNK if run.fds[fd] == "res" else output_bytes)
    return True
