"""Warm fork pool for batch runs: ``execute_many`` and :class:`WorkerPool`.

The parent is warmed once (:mod:`automock.sandbox.warm`: imports, a runtime
rehearsal, ``gc.freeze()``) and prepares the read-only mount namespace once
(:mod:`automock.sandbox.mountns`). Then one child is forked per candidate,
at most ``workers`` running at a time, by the pool's zygote
(:mod:`automock.sandbox.zygote`: a fork server that entered the runtime
once), or by the parent when there is none. Children are pre-forked: while
candidates run, one spare per worker isolates itself (:mod:`automock.sandbox.task`) and
waits for its candidate on a pipe, so the sandbox is ready when a candidate
is handed over. The parent owns the wall clock: at the deadline it kills the
child, whose PID namespace takes every descendant with it. A candidate is
done when its verdict and all its output are in; its exit is reaped later,
off the round trip.

Clean-up: every child is killed and reaped (the zygote reports exits); on
any exit from :meth:`WorkerPool.run` (including ``KeyboardInterrupt``) the running children
are killed, and the spares when the pool closes. Children die with the
parent (``PR_SET_PDEATHSIG``), and all working directories live in one
per-pool directory (``$TMPDIR/automock-batch-<pid>-*``) that the next pool
removes if its owner process is gone.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import os
import pickle
import selectors
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

from automock.errors import InputError, SandboxError
from automock.sandbox.candidates import Candidate, as_candidates, imported_modules
from automock.sandbox.children import Child, reap, result_of, verdict_of
from automock.sandbox.lanes import POOL_PREFIX, kill_group, lane_uid, sweep_stale_dirs
from automock.sandbox.mountns import Holder, PidNamespaceForker, start_holder
from automock.sandbox.task import (
    BatchSettings,
    CandidateResult,
    child_main,
    load_prctl,
)
from automock.sandbox.warm import preload_imports, warm_parent
from automock.sandbox.zygote import Zygote

__all__ = [
    "BatchSettings",
    "CandidateResult",
    "WorkerPool",
    "execute_many",
    "lane_uid",
    "preload_imports",
    "sweep_stale_dirs",
]

_CHUNK = 65536


class WorkerPool:
    """Runs candidates in sandboxed children forked from this (warm) process.

    Use as a context manager; :meth:`run` may be called several times.
    """

    def __init__(
        self,
        settings: BatchSettings | None = None,
        *,
        workers: int = 2,
        base_dir: str | None = None,
    ) -> None:
        if workers < 1:
            raise InputError(f"--workers {workers}: need at least 1 worker")
        self.settings = settings or BatchSettings()
        if self.settings.timeout <= 0:
            raise InputError(
                f"--timeout {self.settings.timeout}: must be a positive number of seconds"
            )
        self.workers = workers
        self._base_dir = base_dir
        self._dir: str | None = None
        self._prctl = load_prctl()
        self._live: dict[int, Child] = {}
        spares = self.settings.spares
        self._spare_count = workers if spares is None else max(0, spares)
        self._free_lanes = set(range(workers + self._spare_count))  # running ones and spares
        self._spares: list[Child] = []
        self._exiting: list[int] = []  # children done (verdict and output in) not yet reaped
        self._holder: Holder | None = None
        self._forker: PidNamespaceForker | None = None
        self._zygote: Zygote | None = None
        self._unresolved: collections.deque[Child] = collections.deque()  # pid not told yet

    def helper_cpu_seconds(self) -> float:
        """CPU time of the zygote and the children it reaped (they are not this process's)."""
        return self._zygote.cpu_seconds() if self._zygote is not None else 0.0

    @property
    def directory(self) -> str | None:
        """The per-pool temp directory (None when not started)."""
        return self._dir

    def __enter__(self) -> WorkerPool:
        sweep_stale_dirs(self._base_dir)
        self._dir = tempfile.mkdtemp(prefix=f"{POOL_PREFIX}{os.getpid()}-", dir=self._base_dir)
        try:
            warm_parent(self.settings)
            if self.settings.prepared_namespace:
                self._holder = start_holder(self._dir)
                if self._holder is not None:
                    self._forker = PidNamespaceForker.create()
                if self._holder is not None and self.settings.zygote:
                    self._zygote = Zygote.start(
                        self.settings, self._holder.mnt_fd, self._dir, self._prctl
                    )
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._kill_all()
        if self._zygote is not None:
            self._zygote.close()
            self._zygote = None
        if self._holder is not None:
            self._holder.close()
            self._holder = None
        if self._forker is not None:
            self._forker.close()
            self._forker = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def run(
        self,
        candidates: Sequence[Candidate],
        on_result: Callable[[CandidateResult], None] | None = None,
        *,
        prepare_next: bool = True,
    ) -> list[CandidateResult]:
        """Run every candidate; results come back in input order.

        With ``prepare_next`` (the default) the pool leaves its spares ready
        for the next call; pass False for a pool's last call.
        """
        if self._dir is None:
            raise InputError(
                "WorkerPool.run: use the pool as a context manager (with WorkerPool() as p)"
            )
        if self.settings.auto_preload:
            names = imported_modules(candidates)
            if self._zygote is not None:  # children are forked from it: it imports them
                self._zygote.preload(names)
            elif preload_imports(names):
                gc.freeze()
        results: list[CandidateResult | None] = [None] * len(candidates)
        pending = list(enumerate(candidates))
        pending.reverse()
        sel = selectors.DefaultSelector()
        if self._zygote is not None:  # it reports its children's exits
            sel.register(self._zygote.fileno(), selectors.EVENT_READ, -1)
        try:
            while pending or self._live:
                while pending and len(self._live) < self.workers:
                    slot, cand = pending.pop()
                    spare = self._spares.pop(0) if self._spares else self._fork()
                    self._dispatch(sel, spare, slot, cand)
                for done in self._step(sel):
                    results[done.slot] = res = self._finish(sel, done)
                    if on_result is not None:
                        on_result(res)
                # children for the next candidates (in this call or the next) get
                # isolated while these run; one fork per turn keeps results flowing
                wanted = self._spare_count if prepare_next else min(self._spare_count, len(pending))
                if len(self._spares) < wanted:
                    self._spares.append(self._fork())
            while prepare_next and len(self._spares) < self._spare_count:
                self._spares.append(self._fork())
        finally:
            self._kill_all(sel, spares=False)
            sel.close()
        return [r for r in results if r is not None]

    def _fork(self) -> Child:
        """Fork a child that isolates itself, then waits for its candidate on a pipe."""
        assert self._dir is not None
        lane = min(self._free_lanes)
        uid = lane_uid(lane) if os.geteuid() == 0 else None
        pipes = [os.pipe() for _ in range(4)]  # stdout, stderr, result, task
        parent_pid = os.getpid()
        try:
            if self._zygote is not None:
                ends = [pipes[0][1], pipes[1][1], pipes[2][1], pipes[3][0]]
                self._zygote.fork(ends, uid)
                pid, pid_init = -1, True  # told later (_resolve)
                for fd in ends:
                    os.close(fd)
            elif self._forker is not None:
                pid, pid_init = self._forker.fork()
            else:
                pid, pid_init = os.fork(), False
        except OSError as exc:
            for r, w in pipes:
                os.close(r)
                os.close(w)
            raise SandboxError(
                f"cannot fork a sandbox child ({exc.strerror or exc}); lower --workers "
                "or raise the process limit"
            ) from None
        if pid == 0:  # child: never returns
            for r, _w in pipes[:3]:
                os.close(r)
            os.close(pipes[3][1])
            child_main(
                None,
                self.settings,
                out_fd=pipes[0][1],
                err_fd=pipes[1][1],
                result_fd=pipes[2][1],
                task_fd=pipes[3][0],
                pool_dir=self._dir,
                parent_pid=parent_pid,
                prctl=self._prctl,
                mnt_fd=self._holder.mnt_fd if self._holder is not None else None,
                pid_init=pid_init,
                uid=uid,
            )
        fds: dict[int, str] = {}
        for (r, w), name in zip(pipes[:3], ("out", "err", "res"), strict=True):
            if self._zygote is None:
                os.close(w)
            os.set_blocking(r, False)
            fds[r] = name
        if self._zygote is None:
            os.close(pipes[3][0])
        self._free_lanes.discard(lane)
        child = Child(pid=pid, lane=lane, fds=fds, task_w=pipes[3][1])
        if pid == -1:
            self._unresolved.append(child)
        return child

    def _resolve(self, child: Child) -> None:
        """Learn the zygote's pids for the children asked for, up to ``child``."""
        while child.pid == -1 and self._zygote is not None:
            first = self._unresolved.popleft()
            try:
                first.pid = self._zygote.next_pid()
            except OSError as exc:
                raise SandboxError(
                    f"cannot fork a sandbox child ({exc.strerror or exc}); lower --workers "
                    "or raise the process limit"
                ) from None

    def _dispatch(
        self, sel: selectors.BaseSelector, run: Child, slot: int, cand: Candidate
    ) -> None:
        """Hand ``cand`` to the (already isolated) child ``run``; its clock starts now."""
        assert run.task_w is not None
        self._resolve(run)
        payload = pickle.dumps(cand)
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(run.task_w, view) :]
        except OSError:
            pass  # it died while getting ready: its verdict (or exit) is this candidate's
        finally:
            os.close(run.task_w)
            run.task_w = None
        now = time.monotonic()
        run.candidate, run.slot, run.started = cand, slot, now
        run.deadline = now + self.settings.timeout
        for fd in run.fds:
            sel.register(fd, selectors.EVENT_READ, run.pid)
        if self._zygote is None:  # else the zygote reports the exit
            with contextlib.suppress(OSError, AttributeError):
                run.pidfd = os.pidfd_open(run.pid)
                sel.register(run.pidfd, selectors.EVENT_READ, run.pid)
        self._live[run.pid] = run

    def _read(self, sel: selectors.BaseSelector, run: Child, fd: int) -> None:
        name = run.fds[fd]
        cap = _CHUNK if name == "res" else self.settings.output_bytes
        while True:
            try:
                data = os.read(fd, _CHUNK)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                sel.unregister(fd)
                os.close(fd)
                del run.fds[fd]
                return
            buf = run.buffers[name]
            room = max(0, cap - len(buf))
            buf += data[:room]
            run.dropped[name] += len(data) - min(room, len(data))

    def _step(self, sel: selectors.BaseSelector) -> list[Child]:
        now = time.monotonic()
        wait = min(r.deadline for r in self._live.values()) - now
        if self._zygote is None and any(r.pidfd is None for r in self._live.values()):
            wait = min(wait, 0.005)
        for key, _ in sel.select(max(0.0, wait)):
            if key.data == -1 and self._zygote is not None:
                self._zygote.poll()
                continue
            run = self._live.get(key.data)
            if run is not None and key.fd in run.fds:
                self._read(sel, run, key.fd)
        done: list[Child] = []
        now = time.monotonic()
        for run in list(self._live.values()):
            if not run.timed_out and now >= run.deadline:
                run.timed_out = True
                kill_group(run.pid)
            # done when it exited, or when its verdict and all output are in: the
            # kernel's namespace teardown at exit then happens off the round trip
            if self._reap(run) or (not run.fds and verdict_of(run)):
                done.append(run)
        self._reap_exiting()
        return done

    def _reap(self, run: Child) -> bool:
        if self._zygote is None:
            return reap(run)
        status = self._zygote.wait(run.pid, block=False)
        if status is None:
            return False
        run.wait_status, run.reaped = status, True
        return True

    def _reap_exiting(self, *, block: bool = False) -> None:
        for pid in list(self._exiting):
            if self._zygote is not None:
                if self._zygote.wait(pid, block=block) is not None:
                    self._exiting.remove(pid)
                continue
            try:
                reaped, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
            except ChildProcessError:
                reaped = pid
            if reaped:
                self._exiting.remove(pid)

    def _finish(self, sel: selectors.BaseSelector, run: Child) -> CandidateResult:
        kill_group(run.pid)  # leftovers the candidate forked into its group
        for fd in list(run.fds):
            self._read(sel, run, fd)  # drain what is buffered (non-blocking)
            if fd in run.fds:
                sel.unregister(fd)
                os.close(fd)
                del run.fds[fd]
        if run.pidfd is not None:
            sel.unregister(run.pidfd)
            os.close(run.pidfd)
        del self._live[run.pid]
        if not run.reaped:
            self._exiting.append(run.pid)
        self._free_lanes.add(run.lane)
        if self._holder is None and self._dir is not None:  # workdir on disk (see child_main)
            shutil.rmtree(os.path.join(self._dir, f"c{run.pid}"), ignore_errors=True)
        return result_of(run, self.settings.timeout)

    def _kill_all(self, sel: selectors.BaseSelector | None = None, *, spares: bool = True) -> None:
        for spare in self._spares if spares else ():
            if spare.task_w is not None:
                with contextlib.suppress(OSError):
                    os.close(spare.task_w)
                spare.task_w = None
            with contextlib.suppress(SandboxError):
                self._resolve(spare)
            if spare.pid != -1:
                self._live[spare.pid] = spare
            else:  # never forked
                for fd in spare.fds:
                    with contextlib.suppress(OSError):
                        os.close(fd)
        if spares:
            self._spares.clear()
        for run in list(self._live.values()):
            kill_group(run.pid)
            if self._zygote is not None and not run.reaped:
                self._zygote.wait(run.pid, block=True)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(run.pid, 0)
            self._free_lanes.add(run.lane)
            for fd in [*run.fds, *([run.pidfd] if run.pidfd is not None else [])]:
                if sel is not None:
                    with contextlib.suppress(KeyError, ValueError):
                        sel.unregister(fd)
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._live.clear()
        self._reap_exiting(block=spares)  # at the pool's end (spares too), wait for every exit


def execute_many(
    candidates: Sequence[Candidate | str | tuple[str, str]],
    *,
    workers: int = 2,
    timeout: float = 10.0,
    plan: Any = None,
    seed: int = 0,
    limits: Any = None,
    allow_network: bool = False,
    output_bytes: int = 64 * 1024,
    preload: Sequence[str] = (),
    on_result: Callable[[CandidateResult], None] | None = None,
) -> list[CandidateResult]:
    """Run candidates (programs, ``(code, tests)`` pairs or :class:`Candidate`) in the sandbox.

    Each runs in its own forked child with a fresh network namespace,
    rlimits and an unprivileged uid, under ``deterministic(plan, seed=seed)``;
    results come back in input order, one :class:`CandidateResult` each.
    """
    settings = BatchSettings(
        timeout=timeout,
        seed=seed,
        plan=plan,
        limits=limits,
        allow_network=allow_network,
        output_bytes=output_bytes,
        preload=tuple(preload),
    )
    with WorkerPool(settings, workers=workers) as pool:
        return pool.run(as_candidates(candidates), on_result=on_result, prepare_next=False)
