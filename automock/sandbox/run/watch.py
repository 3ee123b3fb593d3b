"""Watching one sandbox child to its end and judging it (the parent side of a run).

:func:`finish` sends the spec to a child :mod:`automock.sandbox.run.spawn` started
(a forked child, :mod:`automock.sandbox.run.forked`, already holds it), captures
stdout/stderr up to the output cap, kills the whole process group (and PID
namespace) at the timeout, and judges the outcome from the exit status. The timeout is
the program's: it starts when the sandbox says it started (its own set-up, seconds on a
loaded machine, is bounded apart by :data:`SETUP_ALLOWANCE`).
When the child's ``started`` line arrives (it then waits, before any program
code), the parent observes its isolation from outside
(:mod:`automock.sandbox.run.observe`): those observations are the report's layers.
The rest of the result pipe is the program's own account, validated field by
field (:mod:`automock.sandbox.run.messages`): it adds detail and the accesses,
labelled as the program's, only where the kernel's exit status agrees with it;
anything malformed makes it "unusable", never a crash.
:func:`abandon` kills and cleans up a child that will not be used.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from automock.errors import RunInterrupted
from automock.runtime.events import Access
from automock.sandbox.child.spec_pipe import spec_message, tasks_message
from automock.sandbox.judge import judge_run, with_witness
from automock.sandbox.kernel import cgroup as cg
from automock.sandbox.kernel.isolation import SANDBOX_UID, LayerStatus, Limits, tasks_for_child
from automock.sandbox.kernel.workdir import BOUND
from automock.sandbox.run.messages import RESULT_CAP, parse
from automock.sandbox.run.observe import observe, unobserved
from automock.sandbox.run.reaping import exited, kill_group, pid_namespace_of, reap
from automock.sandbox.run.result import RunOutcome
from automock.sandbox.run.spawn import ChildProcess, Spawned
from automock.sandbox.run.witness import KernelWatch, hidden

__all__ = ["abandon", "defer_removal", "finish", "run_deferred"]

_KILL_GRACE = 0.5  # seconds to keep draining after the program's main process ended
# seconds the sandbox's own set-up may take before the program starts, beyond the timeout
SETUP_ALLOWANCE = 60.0


class _Capture:
    """Reads the child's pipes until EOF, keeping at most ``cap`` bytes of each output
    (:data:`RESULT_CAP` of the result pipe). ``on_started`` is called once, when the
    first line of the result pipe (the sandbox's ``started``) is complete; ``on_more``
    once, when more of it comes (the ``done`` message: the program has ended)."""

    def __init__(
        self,
        cap: int,
        on_started: Callable[[bytes], None] | None = None,
        on_more: Callable[[], object] | None = None,
    ) -> None:
        self.cap = cap
        self.on_started, self.on_more = on_started, on_more
        self.data: dict[str, bytearray] = {
            "stdout": bytearray(),
            "stderr": bytearray(),
            "result": bytearray(),
        }
        self.dropped: dict[str, int] = {"stdout": 0, "stderr": 0, "result": 0}
        self.escaped = False  # a descendant outlived the main process holding a pipe
        self.deadline = 0.0

    def pump(self, proc: ChildProcess, result_fd: int, deadline: float) -> bool:
        """Drain until every pipe closes; return True if the deadline passed first.

        ``self.deadline`` starts as ``deadline``; ``on_started`` may move it (the program's
        own timeout starts when the program does)."""
        self.deadline = deadline
        sel = selectors.DefaultSelector()
        assert proc.stdout is not None and proc.stderr is not None
        sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
        sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
        sel.register(result_fd, selectors.EVENT_READ, "result")
        timed_out = False
        exited_at: float | None = None
        try:
            while sel.get_map():
                now, deadline = time.monotonic(), self.deadline
                if now >= deadline:
                    timed_out = not exited(proc)
                    break
                if exited_at is None and exited(proc):
                    exited_at = now
                if exited_at is not None and now - exited_at > _KILL_GRACE:
                    self.escaped = True
                    break  # a descendant escaped the group and holds a pipe open
                for key, _ in sel.select(timeout=min(0.1, deadline - now)):
                    chunk = os.read(key.fd, 65536)
                    if not chunk:
                        sel.unregister(key.fileobj)
                        continue
                    self._keep(key.data, chunk)
        finally:
            sel.close()
        return timed_out

    def _keep(self, name: str, chunk: bytes) -> None:
        buf = self.data[name]
        cap = self.cap if name != "result" else RESULT_CAP
        room = max(0, cap - len(buf))
        buf += chunk[:room]
        self.dropped[name] += len(chunk) - min(room, len(chunk))
        if name != "result":
            return
        if self.on_started is None and self.on_more is not None:
            more, self.on_more = self.on_more, None
            more()
        if self.on_started is not None and (b"\n" in buf or not room):
            call, self.on_started = self.on_started, None
            call(bytes(buf.split(b"\n", 1)[0]))

    def text(self, name: str) -> str:
        text = self.data[name].decode("utf-8", "replace")
        if self.dropped[name]:
            text += f"\n[automock: output truncated after {self.cap} bytes]\n"
        return text


def _close_pipes(spawned: Spawned) -> None:
    for fd in (spawned.spec_w, spawned.result_r, spawned.go_w):
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
    for stream in (spawned.proc.stdout, spawned.proc.stderr):
        if stream is not None:
            stream.close()


def _remove_made(spawned: Spawned, cgroup: cg.Cgroup | str | None = None) -> None:
    """Remove the child's workdir, the spare's cgroup and ``cgroup``."""
    spawned.work.cleanup()
    # a spare's (the run's own when its limits fit, else left for one made for the run)
    for made in (spawned.cgroup, None if cgroup is spawned.cgroup else cgroup):
        if isinstance(made, cg.Cgroup):
            made.remove()


def _close(spawned: Spawned) -> None:
    _close_pipes(spawned)
    _remove_made(spawned)


_LATER: list[Callable[[], object]] = []
_DEFER: list[bool] = []  # [True]: removal waits for run_deferred (in a server's handler)


def defer_removal() -> None:
    """From now on in this process, a finished run's workdir and cgroup are removed by
    :func:`run_deferred` (after the exit code went out), not before :func:`finish` returns."""
    _DEFER[:] = [True]


def run_deferred() -> None:
    """Remove what :func:`defer_removal` held back."""
    while _LATER:
        with contextlib.suppress(Exception):
            _LATER.pop(0)()


def _remove(spawned: Spawned, cgroup: cg.Cgroup | str, ended: bool) -> None:
    """Close the child's pipes, remove its workdir and cgroup: now, or (deferred, the child
    reaped: its PID namespace died with it) once the command's exit code went out."""
    _close_pipes(spawned)  # now: a --repeat of hundreds of runs must not run out of fds
    if ended and _DEFER:
        _LATER.append(lambda: _remove_made(spawned, cgroup))
    else:
        _remove_made(spawned, cgroup)


def abandon(spawned: Spawned) -> None:
    """Kill a child that will not run (the parent failed before sending the spec)."""
    kill_group(spawned.proc, None)
    spawned.proc.wait()
    _close(spawned)


def _write(fd: int, payload: bytes) -> None:
    try:
        while payload:
            payload = payload[os.write(fd, payload) :]
    except BrokenPipeError:
        pass  # the child died while starting; its exit status tells the story


def _send(spawned: Spawned, spec: dict[str, Any]) -> None:
    """Give a spawned child its spec, then (while it reads it and enters the namespaces it
    has not entered yet) fill its workdir if that is still to do (a spare's,
    :mod:`automock.sandbox.run.spare`) and count the run uid's tasks: the child waits for
    that count before its rlimits and uid drop (:mod:`automock.sandbox.child.spec_pipe`)."""
    fd = spawned.spec_w
    if fd is None:
        return  # forked: it holds its spec
    _write(fd, spec_message(spec))  # one write: the child reads it in one
    if spawned.fill is not None:
        spawned.work, spawned.fill = spawned.fill(), None
    spawned.spec_w = None
    try:
        _write(fd, tasks_message(tasks_for_child(spec.get("uid", SANDBOX_UID))))
    finally:
        os.close(fd)


class _Observer:
    """Observes the child's isolation from outside when its ``started`` line arrives,
    then lets it run the program (:mod:`automock.sandbox.run.observe`)."""

    def __init__(self, spawned: Spawned, limits: Limits, spec: dict[str, Any]) -> None:
        self.spawned, self.limits, self.allow_network = (
            spawned,
            limits,
            bool(spec.get("allow_network")),
        )
        self.uid: int | None = spec.get("uid")  # the run's own (None: not root)
        self.layers: tuple[LayerStatus, ...] | None = None
        self.cgroup: cg.Cgroup | str = "not made: the sandbox never started"
        self.kernel = KernelWatch()  # the kernel's counts, from before the program runs

    def confine_early(self) -> None:
        """Make the cgroup and move the child in while it is still isolating itself: moving
        a process waits for the kernel (an RCU grace period, milliseconds), and this way the
        wait overlaps the child's own work. :meth:`__call__` checks it again, descendants
        included, before the program may run."""
        made, limits = self.spawned.cgroup, self.limits
        with contextlib.suppress(Exception):  # __call__ says what went wrong
            if made is not None and (made.memory_mb, made.processes) == (
                limits.memory_mb,
                limits.processes,
            ):  # a spare's, made ahead: the child is in already (confine checks, writes nothing)
                self.cgroup = made
            else:
                self.cgroup = cg.create("run", limits.memory_mb, limits.processes)
            cg.confine(self.spawned.proc.pid, self.cgroup)

    def __call__(self, first_line: bytes) -> None:
        try:
            if not isinstance(self.cgroup, cg.Cgroup):
                self.cgroup = cg.create("run", self.limits.memory_mb, self.limits.processes)
            confined = cg.confine(self.spawned.proc.pid, self.cgroup)
            started = parse(first_line + b"\n").started
            claimed = started["layers"] if started is not None else ()
            seen = observe(
                self.spawned.proc.pid,
                limits=self.limits,
                allow_network=self.allow_network,
                workdir=self.spawned.work.root,
                claimed=claimed,
                uid=self.uid,
            )
            self.layers = (*seen, confined, cg.cpu_layer(self.cgroup, confined))
            self.kernel.start(self.spawned.proc.pid, self.cgroup)
        except Exception as exc:  # an observation that failed shows nothing as in force
            self.layers = unobserved(f"observing the sandbox failed ({type(exc).__name__})")
        finally:
            self.go()

    def go(self) -> None:
        """Let the child run the program (or end: it was observed, or will not be)."""
        fd, self.spawned.go_w = self.spawned.go_w, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.write(fd, b"g")
            with contextlib.suppress(OSError):
                os.close(fd)


def _interrupted(capture: _Capture, proc: ChildProcess, result_fd: int) -> RunInterrupted:
    """What the program wrote before Ctrl-C: the pipes drained (it is dead by now)."""
    with contextlib.suppress(OSError, ValueError):
        capture.pump(proc, result_fd, time.monotonic() + _KILL_GRACE)
    return RunInterrupted(capture.text("stdout"), capture.text("stderr"))


def finish(
    spawned: Spawned,
    spec: dict[str, Any],
    timeout: float,
    limits: Limits,
    *,
    collect: Callable[[Path], object] | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> RunOutcome:
    """Send ``spec``, watch the run to its end (or the timeout), clean up, judge.

    ``collect(workdir_root)`` is called after the child ended (not after an
    interrupt) and before the workdir is removed, e.g. to keep a recorded cassette.
    ``meanwhile()`` is called once, when the program's ``done`` message comes (from then on
    this process only waits for the child's end), e.g. to start work in a thread that needs
    no part of the run: started earlier, it would slow down getting the program there.
    """
    proc = spawned.proc
    ended = False
    observer = _Observer(spawned, limits, spec)
    capture: _Capture | None = None
    try:
        _send(spawned, spec)
        observer.confine_early()
        capture = watching = _Capture(limits.output_bytes, None, meanwhile)

        def started(first_line: bytes) -> None:
            observer(first_line)  # the program runs from here: its timeout starts now
            watching.deadline = time.monotonic() + timeout

        watching.on_started = started
        # until the sandbox says it started, its own set-up is bounded too (a loaded machine
        # may take seconds for it; none of that is the program's time)
        setup_bound = time.monotonic() + timeout + SETUP_ALLOWANCE
        timed_out = capture.pump(proc, spawned.result_r, setup_bound)
        observer.go()  # no started line came: nothing to observe, nothing may wait for us
        if not exited(proc) or capture.escaped:
            kill_group(proc, pid_namespace_of(proc.pid))
        returncode, cpu = reap(proc)
        oom_kills = observer.cgroup.oom_kills() if isinstance(observer.cgroup, cg.Cgroup) else 0
        seen = observer.kernel.witness(observer.cgroup)
        full = BOUND >> 20 if spawned.work.full() else None  # seen before the workdir goes
        ended = True
    except BaseException as exc:  # Ctrl-C or our own bug: the child is in its own session
        kill_group(proc, pid_namespace_of(proc.pid))
        proc.wait()
        if isinstance(exc, KeyboardInterrupt) and capture is not None:
            raise _interrupted(capture, proc, spawned.result_r) from exc
        raise
    finally:
        observer.kernel.close()
        try:
            if ended and collect is not None:
                collect(spawned.work.root)
        finally:
            _remove(spawned, observer.cgroup, ended)
    report = parse(bytes(capture.data["result"]), capture.dropped["result"])
    report = report.checked_against(returncode, not timed_out and returncode >= 0)
    child = report.done
    stderr = capture.text("stderr")
    status, code, detail = judge_run(
        returncode,
        timed_out,
        child,
        unusable=report.problem,
        stderr=stderr,
        cpu_used=cpu,
        cpu_seconds=limits.cpu_seconds,
        memory_mb=limits.memory_mb,
        file_size_mb=limits.file_size_mb,
        oom_kills=oom_kills,
        workdir_full=full,
    )
    accesses = tuple(Access(**a) for a in (child or {}).get("accesses", ()))
    extra = (child or {}).get("extra")
    seen = hidden(seen, accesses, reported=not report.problem, extra=extra)
    status, code, detail = with_witness(status, code, detail, seen.hidden)
    layers = observer.layers or unobserved("the sandbox ended before the program started")
    layers += (LayerStatus("workdir", True, spawned.work.note),)
    return RunOutcome(
        exit_code=code,
        status=status,
        stdout=capture.text("stdout"),
        stderr=stderr,
        returncode=returncode,
        accesses=accesses,
        exception=(child or {}).get("exception"),
        truncated=any(capture.dropped[n] for n in ("stdout", "stderr")),
        seconds=time.perf_counter() - spawned.started,
        setup_seconds=float((child or {}).get("setup_seconds", 0.0)),
        layers=layers,
        detail=detail,
        start=spawned.start,
        report_problem=report.problem,
        kernel=seen,
        observations=_observations(child),
    )


def _observations(child: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """A trial run's observations from its ``done`` message (the program's word; {} if none)."""
    extra = (child or {}).get("extra")
    found = extra.get("observations") if isinstance(extra, dict) else None
    return found if isinstance(found, dict) else {}
