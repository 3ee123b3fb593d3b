"""Warm fork pool for batch runs: ``execute_many`` and :class:`WorkerPool`.

The parent is warmed once (:mod:`automock.sandbox.batch.warm`) and prepares the read-only
mount namespace once (:mod:`automock.sandbox.kernel.mountns`). One child is forked per
candidate, at most ``workers`` running at a time, by the pool's zygote (a fork server that
entered the runtime once), or by the parent (:mod:`automock.sandbox.batch.forking`).
Children are pre-forked: one spare per worker isolates itself and waits for its candidate
on a pipe (:mod:`automock.sandbox.batch.zygote_child`; :mod:`~automock.sandbox.batch.task`).
The parent owns the wall clock: at the deadline it kills the child, whose PID namespace
takes every descendant with it. A candidate is done when its verdict and all its output
are in (a program's verdict also waits for its exit status; see judge).

Clean-up: every child is killed and reaped (the zygote reports exits), the running ones on
any exit from :meth:`WorkerPool.run` (``KeyboardInterrupt`` too), spares when the pool closes;
children die with the parent (``PR_SET_PDEATHSIG``); working directories live in one per-pool
directory (``$TMPDIR/automock-batch-<pid>-*``) that the next pool removes if its owner is gone.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING

from automock.errors import InputError
from automock.sandbox.batch.candidates import Candidate, as_candidates, imported_modules
from automock.sandbox.batch.cgroups import LaneCgroups
from automock.sandbox.batch.children import Child, drain, pair_done, read_ready, result_of
from automock.sandbox.batch.forking import Spawner
from automock.sandbox.batch.lanes import (
    MAX_LANES,
    POOL_PREFIX,
    kill_group,
    lane_uid,
    sweep_stale_dirs,
)
from automock.sandbox.batch.task import (
    BatchSettings,
    CandidateResult,
    default_limits,
    encode_task,
    send_code,
)
from automock.sandbox.batch.warm import preload_imports
from automock.sandbox.kernel.landlock import readable_paths

if TYPE_CHECKING:
    from automock.plan.model import Plan
    from automock.sandbox.kernel.isolation import Limits


__all__ = [
    "BatchSettings",
    "CandidateResult",
    "WorkerPool",
    "execute_many",
    "lane_uid",
    "preload_imports",
    "sweep_stale_dirs",
]

# a spare not yet in its lane's cgroup (its own move waits for the kernel, ~1-10 ms):
# the pool looks again every _RECHECK_S, and after _MOVE_AFTER_S moves it itself
_RECHECK_S = 0.001
_MOVE_AFTER_S = 0.05


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
            raise InputError(f"workers={workers} (--workers): need at least 1 worker")
        self.settings = settings or BatchSettings()
        if (timeout := self.settings.timeout) <= 0:
            raise InputError(f"timeout={timeout} (--timeout): must be a positive number of seconds")
        self.workers = workers
        self._base_dir = base_dir
        self._dir: str | None = None
        self._spawner: Spawner | None = None
        self._live: dict[int, Child] = {}
        spares = self.settings.spares
        self._spare_count = workers if spares is None else max(0, spares)
        # lanes for running children and spares, and twice as many again for children
        # whose verdict is in but whose exit is not yet (a lane is reused only after it)
        lanes = 3 * workers + self._spare_count
        if lanes > MAX_LANES:
            raise InputError(
                f"workers={workers} (--workers): at most {(MAX_LANES - self._spare_count) // 3}"
            )
        self._free_lanes = set(range(lanes))
        self._dying: dict[int, int] = {}  # pid of a done child not yet reaped -> its lane
        self._expect_pairs = False  # spares fork a pair's candidate process ahead
        self._spares: list[Child] = []
        # children given a candidate that is not sent yet: (child, slot, candidate, since)
        self._entering: list[tuple[Child, int, Candidate, float]] = []
        self._cgroups = LaneCgroups(self.settings.limits or default_limits())

    def helper_cpu_seconds(self) -> float:
        """CPU time of the zygote and the children it reaped (they are not this process's)."""
        return self._spawner.cpu_seconds() if self._spawner is not None else 0.0

    @property
    def directory(self) -> str | None:
        """The per-pool temp directory (None when not started)."""
        return self._dir

    def __enter__(self) -> WorkerPool:
        sweep_stale_dirs(self._base_dir)
        self._dir = tempfile.mkdtemp(prefix=f"{POOL_PREFIX}{os.getpid()}-", dir=self._base_dir)
        self._spawner = Spawner(self.settings, self._dir)
        try:
            self._spawner.start()
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
        if self._spawner is not None:
            self._kill_all(self._spawner)
            self._spawner.close()
            self._spawner = None
        self._cgroups.close()
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
        spawner = self._spawner
        if spawner is None:
            raise InputError(
                "WorkerPool.run: use the pool as a context manager (with WorkerPool() as p)"
            )
        if self.settings.auto_preload:
            spawner.preload(imported_modules(candidates))
        if candidates:  # what the next spares prepare for: as the last candidate sent
            self._expect_pairs = candidates[0].test is not None
        results: list[CandidateResult | None] = [None] * len(candidates)
        pending = list(enumerate(candidates))
        pending.reverse()
        sel = selectors.DefaultSelector()
        if spawner.exit_fd is not None:  # the zygote reports its children's exits
            sel.register(spawner.exit_fd, selectors.EVENT_READ, -1)
        try:
            while pending or self._live or self._entering:
                while pending and len(self._live) + len(self._entering) < self.workers:
                    slot, cand = pending.pop()
                    spare = self._spares.pop(0) if self._spares else self._fork(spawner)
                    self._entering.append((spare, slot, cand, time.monotonic()))
                self._send_ready(spawner, sel)
                for done in self._step(spawner, sel):
                    results[done.slot] = res = self._finish(spawner, sel, done)
                    if on_result is not None:
                        on_result(res)
                # children for this call's next candidates get isolated while these run (one
                # fork per turn keeps results flowing); the next call's, once the results are
                # in: forked now, they would take the CPU from the candidates running
                if len(self._spares) < min(self._spare_count, len(pending)):
                    self._spares.append(self._fork(spawner))
                for spare in self._spares if not pending and spawner.zygote else ():
                    # while the last candidates run, so the next call sends at once
                    if not spare.confined and spawner.told(spare):
                        spare.confined = self._cgroups.inside(spare.pid, spare.lane)
            while prepare_next and len(self._spares) < self._spare_count:
                self._spares.append(self._fork(spawner, rehearse=True))
        finally:
            self._kill_all(spawner, sel, spares=False)
            sel.close()
        return [r for r in results if r is not None]

    def _fork(self, spawner: Spawner, *, rehearse: bool = False) -> Child:
        """A spare; ``rehearse``: one for the next call, which rehearses a pair while it waits
        (under load its CPU would only slow the pairs running)."""
        while not self._free_lanes:  # every spare lane waits for an exit: wait for one
            self._lanes_back(spawner.reap_one())
        lane = min(self._free_lanes)
        files = self._cgroups.procs_files(lane) if spawner.zygote else ()
        child = spawner.spawn(lane, files, pair=self._expect_pairs, rehearse=rehearse)
        self._free_lanes.discard(lane)
        return child

    def _lanes_back(self, reaped: Sequence[int]) -> None:
        """The lanes of these reaped children are free again."""
        for pid in reaped:
            lane = self._dying.pop(pid, None)
            if lane is not None:
                self._free_lanes.add(lane)

    def _send_ready(self, spawner: Spawner, sel: selectors.BaseSelector) -> None:
        """Dispatch the children given a candidate that are in their lane's cgroup.

        A child of the zygote moves itself in; one still on its way (its move waits for
        an RCU grace period) is looked at again on the next turn rather than moved by the
        pool, whose own move would wait as long and stall every other child's results.
        """
        waiting = []
        for entry in self._entering:
            run, slot, cand, since = entry
            spawner.resolve(run)
            late = time.monotonic() - since > _MOVE_AFTER_S
            inside = spawner.zygote and (run.confined or self._cgroups.inside(run.pid, run.lane))
            if inside or late or not spawner.zygote:
                self._dispatch(spawner, sel, run, slot, cand, seen_inside=inside)
            else:
                waiting.append(entry)
        self._entering = waiting

    def _dispatch(
        self,
        spawner: Spawner,
        sel: selectors.BaseSelector,
        run: Child,
        slot: int,
        cand: Candidate,
        *,
        seen_inside: bool = False,
    ) -> None:
        """Hand ``cand`` to the (already isolated) child ``run``; its clock starts now. The
        candidate is written last (a pair's code to its candidate's process first, which then
        loads while the test process wakes): the child wakes while this process goes to wait."""
        assert run.task_w is not None
        spawner.resolve(run)
        self._cgroups.confine(run.pid, run.lane, seen_inside=seen_inside)  # before its candidate
        spawner.observe(run)  # its time and network namespaces, from outside
        now = time.monotonic()
        run.candidate, run.slot, run.started = cand, slot, now
        self._expect_pairs = cand.test is not None
        run.deadline = now + self.settings.timeout
        for fd in run.fds:
            sel.register(fd, selectors.EVENT_READ, run.pid)
        pidfd = spawner.watch(run)
        if pidfd is not None:
            sel.register(pidfd, selectors.EVENT_READ, run.pid)
        self._live[run.pid] = run
        code_w = run.code_w if cand.is_pair else None
        sent = code_w is not None and send_code(code_w, cand, self.settings.seed)
        task = memoryview(encode_task(cand, code_sent=sent))
        with contextlib.suppress(OSError):  # it died while getting ready: this candidate's end
            while task:
                task = task[os.write(run.task_w, task) :]
        run.close_task()

    def _step(self, spawner: Spawner, sel: selectors.BaseSelector) -> list[Child]:
        now = time.monotonic()
        wait = min((r.deadline for r in self._live.values()), default=now + _RECHECK_S) - now
        if self._entering:
            wait = min(wait, _RECHECK_S)
        if spawner.exit_fd is None and any(r.pidfd is None for r in self._live.values()):
            wait = min(wait, 0.005)  # exits are only seen by polling
        for key, _ in sel.select(max(0.0, wait)):
            if key.data == -1:
                spawner.collect()
                continue
            run = self._live.get(key.data)
            if run is not None and key.fd in run.fds:
                read_ready(sel, run, key.fd, self.settings.output_bytes)
        done: list[Child] = []
        now = time.monotonic()
        for run in list(self._live.values()):
            if not run.timed_out and now >= run.deadline:
                run.timed_out = True
                kill_group(run.pid)
            # done when it exited, or when a pair's verdict and all output are in (the
            # teardown at exit off the round trip); a program's "passed" needs its exit 0
            if spawner.reaped(run) or pair_done(run):
                done.append(run)
        self._lanes_back(spawner.reap_exited())
        return done

    def _finish(self, spawner: Spawner, sel: selectors.BaseSelector, run: Child) -> CandidateResult:
        kill_group(run.pid)  # leftovers the candidate forked into its group
        drain(sel, run, self.settings.output_bytes)
        if run.pidfd is not None:
            sel.unregister(run.pidfd)
            os.close(run.pidfd)
        del self._live[run.pid]
        spawner.release(run)
        # its lane (uid, cgroup, network namespace) goes to a new child only after it exited
        if run.reaped:
            self._free_lanes.add(run.lane)
        else:
            self._dying[run.pid] = run.lane
        limits = self.settings.limits if self.settings.limits is not None else default_limits()
        layer, oom_kills = self._cgroups.finish(run.pid, run.lane)
        return result_of(
            run,
            self.settings.timeout,
            limits.memory_mb,
            batch_seed=self.settings.seed,
            cgroup=(layer, oom_kills),
        )

    def _kill_all(
        self,
        spawner: Spawner,
        sel: selectors.BaseSelector | None = None,
        *,
        spares: bool = True,
    ) -> None:
        for run, *_ in self._entering:  # given a candidate, never sent it: as a spare
            if spawner.kill_spare(run):
                self._live[run.pid] = run
        self._entering.clear()
        for spare in self._spares if spares else ():
            if spawner.kill_spare(spare):
                self._live[spare.pid] = spare
            else:  # never forked
                for fd in spare.fds:
                    with contextlib.suppress(OSError):
                        os.close(fd)
        if spares:
            self._spares.clear()
        for run in list(self._live.values()):
            kill_group(run.pid)
            spawner.wait(run)
            self._free_lanes.add(run.lane)
            for fd in [*run.fds, *([run.pidfd] if run.pidfd is not None else [])]:
                if sel is not None:
                    with contextlib.suppress(KeyError, ValueError):
                        sel.unregister(fd)
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._live.clear()
        # at the pool's end (spares too), wait for every exit
        self._lanes_back(spawner.reap_exited(block=spares))


def execute_many(
    candidates: Sequence[Candidate | str | tuple[str, str]],
    *,
    workers: int = 2,
    timeout: float = 10.0,
    plan: Plan | None = None,
    seed: int = 0,
    limits: Limits | None = None,
    allow_network: bool = False,
    output_bytes: int = 64 * 1024,
    preload: Sequence[str] = (),
    on_result: Callable[[CandidateResult], None] | None = None,
    readable: Sequence[str] = (),
    hidden: Sequence[str] = (),
) -> list[CandidateResult]:
    """Run candidates (programs, ``(code, tests)`` pairs or :class:`Candidate`) in the sandbox.

    Each runs in its own forked child in its lane's empty network namespace,
    with rlimits and an unprivileged uid, under ``deterministic(plan, seed=seed)``;
    results come back in input order, one :class:`CandidateResult` each.
    ``readable``: paths candidates may read besides the interpreter, ``sys.path`` and
    the system libraries (:mod:`automock.sandbox.kernel.landlock`).
    """
    settings = BatchSettings(
        timeout=timeout,
        seed=seed,
        plan=plan,
        limits=limits,
        allow_network=allow_network,
        output_bytes=output_bytes,
        preload=tuple(preload),
        readable=readable_paths(readable, "readable"),
        hidden=tuple(hidden),
    )
    with WorkerPool(settings, workers=workers) as pool:
        return pool.run(as_candidates(candidates), on_result=on_result, prepare_next=False)
