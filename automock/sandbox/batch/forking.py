"""Where the batch pool's children come from, and how the pool learns that they ended.

A :class:`Spawner` hides the three ways a child is forked, best first:

- by the pool's *zygote* (:mod:`automock.sandbox.batch.zygote`), a fork server
  (a fresh interpreter) that entered the runtime and the prepared mount
  namespace once; it
  reports each child's pid (asynchronously) and, later, its exit status;
- by the pool's parent straight into a new PID namespace
  (:class:`~automock.sandbox.kernel.mountns.PidNamespaceForker`), the child then
  joining the prepared read-only mount namespace (:mod:`automock.sandbox.kernel.mountns`);
- by a plain ``fork()``, the child entering every layer itself
  (not root, no mount namespaces).

Whichever it is, the pool gets a :class:`~automock.sandbox.batch.children.Child`
with its pipes, and asks the spawner whether (or waits until) it exited.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import gc
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from automock.errors import SandboxError
from automock.sandbox.batch.children import Child
from automock.sandbox.batch.hidden import hidden_paths
from automock.sandbox.batch.lanenets import LaneNetworks
from automock.sandbox.batch.lanes import lane_uid
from automock.sandbox.batch.task import BatchSettings, child_main, load_prctl
from automock.sandbox.batch.warm import preload_imports, warm_parent
from automock.sandbox.batch.zygote import Zygote
from automock.sandbox.kernel.hostfacts import CLOCK_START_S, clocks_of, near_start
from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.mountns import Holder, PidNamespaceForker, start_holder
from automock.sandbox.kernel.netns import EmptyNetwork

__all__ = ["Spawner"]


def _link(path: str) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def _fork_error(exc: OSError) -> SandboxError:
    return SandboxError(
        f"cannot fork a sandbox child ({exc.strerror or exc}); use fewer workers (--workers) "
        "or raise the process limit"
    )


class Spawner:
    """Forks sandbox children for one pool and tracks their exits (see the module doc)."""

    def __init__(self, settings: BatchSettings, pool_dir: str) -> None:
        # the inputs named, and benchmark data found on sys.path, are never the candidates'
        self.settings = replace(settings, hidden=hidden_paths(settings.hidden))
        self.pool_dir = pool_dir
        self._prctl = load_prctl()
        self._holder: Holder | None = None
        self._forker: PidNamespaceForker | None = None
        self._zygote: Zygote | None = None
        self._unresolved: collections.deque[Child] = collections.deque()  # pid not told yet
        self._exiting: set[int] = set()  # done (verdict and output in), not yet reaped
        self._pool_time: tuple[str, dict[str, Any]] | None = None  # see observe_time
        # lanes' empty network namespaces, for the zygote's children (see lanenets)
        self.networks = LaneNetworks(enabled=not (settings.allow_network or settings.fresh_network))

    def start(self) -> None:
        """Warm this process, then start what the settings ask for and the kernel allows."""
        warm_parent(self.settings)
        if not self.settings.prepared_namespace:
            return
        self._holder = start_holder(self.pool_dir, self.settings.hidden)
        if self._holder is None:
            return
        self._forker = PidNamespaceForker.create()
        if self.settings.zygote:
            self._zygote = Zygote.start(self.settings, self._holder.mnt_fd)

    def close(self) -> None:
        self.networks.close()
        if self._zygote is not None:
            self._zygote.close()
            self._zygote = None
        if self._holder is not None:
            self._holder.close()
            self._holder = None
        if self._forker is not None:
            self._forker.close()
            self._forker = None

    @property
    def exit_fd(self) -> int | None:
        """An fd that becomes readable when exits are reported (then call :meth:`collect`)."""
        return self._zygote.fileno() if self._zygote is not None else None

    def collect(self) -> None:
        if self._zygote is not None:
            self._zygote.poll()

    def cpu_seconds(self) -> float:
        """CPU time of the zygote and the children it reaped (they are not this process's)."""
        return self._zygote.cpu_seconds() if self._zygote is not None else 0.0

    def preload(self, names: Iterable[str]) -> None:
        """Import the installed modules among ``names`` where the children are forked from."""
        if self._zygote is not None:
            self._zygote.preload(names)
        elif preload_imports(names):
            gc.freeze()

    def spawn(
        self,
        lane: int,
        cgroup_files: Sequence[int] = (),
        *,
        pair: bool = False,
        rehearse: bool = True,
    ) -> Child:
        """A child that isolates itself, then waits for its candidate on a pipe.

        ``cgroup_files``: its lane cgroup's ``cgroup.procs``, open for writing; a
        child of the zygote moves itself in (see :mod:`~automock.sandbox.batch.cgroups`).
        ``pair``: a child of the zygote forks a pair's candidate process ahead (the pool
        expects a pair, and sends its code on a pipe of its own); ``rehearse``: both rehearse
        a pair while they wait (a spare for the pool's next call: see ``WorkerPool._fork``)."""
        uid = lane_uid(lane) if os.geteuid() == 0 else None
        code = pair and self._zygote is not None  # stdout, stderr, result, task (and code) pipes
        pipes = [os.pipe() for _ in range(5 if code else 4)]
        ends = [pipes[0][1], pipes[1][1], pipes[2][1], *(r for r, _ in pipes[3:])]  # the child's
        parent_pid = os.getpid()
        net = None
        try:
            if self._zygote is not None:
                net = self._ask_zygote(lane, [*ends, *cgroup_files], uid, pair, rehearse)
                pid, pid_init = -1, True  # told later (resolve)
            elif self._forker is not None:
                pid, pid_init = self._forker.fork()
            else:
                pid, pid_init = os.fork(), False
        except OSError as exc:
            for fd in [fd for pipe in pipes for fd in pipe]:
                os.close(fd)
            raise _fork_error(exc) from None
        if pid == 0:  # child: never returns
            for fd in (pipes[0][0], pipes[1][0], pipes[2][0], pipes[3][1]):
                os.close(fd)
            child_main(
                None,
                self.settings,
                out_fd=ends[0],
                err_fd=ends[1],
                result_fd=ends[2],
                task_fd=ends[3],
                pool_dir=self.pool_dir,
                parent_pid=parent_pid,
                prctl=self._prctl,
                mnt_fd=self._holder.mnt_fd if self._holder is not None else None,
                pid_init=pid_init,
                uid=uid,
            )
        for fd in ends:
            os.close(fd)
        fds = {r: name for (r, _w), name in zip(pipes[:3], ("out", "err", "res"), strict=True)}
        for r in fds:
            fcntl.fcntl(r, fcntl.F_SETFL, os.O_NONBLOCK)
        child = Child(pid=pid, lane=lane, fds=fds, task_w=pipes[3][1])
        child.code_w, child.network = pipes[4][1] if code else None, self.networks.given(net)
        if pid == -1:
            self._unresolved.append(child)
        return child

    def _ask_zygote(
        self, lane: int, fds: list[int], uid: int | None, pair: bool, rehearse: bool
    ) -> EmptyNetwork | None:
        """Ask the zygote for a child with ``fds`` that joins ``lane``'s network namespace
        (if it has one: :mod:`~automock.sandbox.batch.lanenets`); that namespace."""
        assert self._zygote is not None
        net = self.networks.for_lane(lane)
        fd = net.fd if net is not None else None
        self._zygote.fork(fds, uid, pair=pair, rehearse=rehearse, network=fd)
        return net

    def resolve(self, child: Child) -> None:
        """Learn the zygote's pids for the children asked for, up to ``child``."""
        while child.pid == -1 and self._zygote is not None:
            first = self._unresolved.popleft()
            try:
                first.pid = self._zygote.next_pid()
            except OSError as exc:
                raise _fork_error(exc) from None

    def observe(self, child: Child) -> None:
        """Look from outside at the (resolved) ``child``'s time and network namespaces."""
        self.observe_time(child)
        if child.network is not None:
            child.network_layer = LaneNetworks.observe(child.pid, child.network)

    def observe_time(self, child: Child) -> None:
        """Look from outside at the time namespace of the zygote's (forked, resolved) ``child``:
        the zygote forks every child into one it made for them (a child is in it from its
        birth), whose offsets this process reads once, from the zygote. ``child.time_layer``
        then replaces the child's own ``time`` layer; it stays None where there is no zygote
        or no such namespace (the child's report stands, as for its other layers)."""
        zygote = self._zygote
        if zygote is None:
            return
        if self._pool_time is None:
            link = _link(f"/proc/{zygote.pid}/ns/time_for_children")
            made = link is not None and link != _link(f"/proc/{zygote.pid}/ns/time")
            detail = (
                f"the pool's time namespace, seen from outside: CLOCK_MONOTONIC and "
                f"CLOCK_BOOTTIME started at {CLOCK_START_S} s when the pool started"
            )
            layer = LayerStatus("time", True, detail).to_dict()
            self._pool_time = (
                (link or "", layer) if made and near_start(clocks_of(zygote.pid)) else ("", {})
            )
        link, layer = self._pool_time
        if not link:
            return
        seen = _link(f"/proc/{child.pid}/ns/time")
        fact = "not seen in the pool's time namespace (the host's clocks, or it is gone)"
        child.time_layer = layer if seen == link else LayerStatus("time", False, fact).to_dict()

    def told(self, child: Child) -> bool:
        """Whether ``child``'s pid is known, learning it if the zygote already told it
        (never waits, unlike :meth:`resolve`)."""
        zygote = self._zygote
        while child.pid == -1 and zygote is not None and zygote.forked:
            if zygote.forked[0][0] != b"P":  # a fork error: resolve() raises it when due
                return False
            self.resolve(self._unresolved[0])
        return child.pid != -1

    def watch(self, child: Child) -> int | None:
        """An fd readable when ``child`` exits, if this process must watch it (else None)."""
        if self._zygote is not None:  # the zygote reports the exit
            return None
        with contextlib.suppress(OSError, AttributeError):
            child.pidfd = os.pidfd_open(child.pid)
        return child.pidfd

    def reaped(self, child: Child) -> bool:
        """Whether ``child`` exited (its wait status then recorded); never blocks."""
        if self._zygote is None:
            try:
                pid, status = os.waitpid(child.pid, os.WNOHANG)
            except ChildProcessError:
                return True
            if pid == 0:
                return False
        else:
            found = self._zygote.wait(child.pid, block=False)
            if found is None:
                return False
            status = found
        child.wait_status, child.reaped = status, True
        return True

    def release(self, child: Child) -> None:
        """``child`` is done: reap it later if it has not exited yet; drop its workdir."""
        if not child.reaped:
            self._exiting.add(child.pid)
        if self._holder is None:  # its workdir is on disk (see child_main)
            shutil.rmtree(os.path.join(self.pool_dir, f"c{child.pid}"), ignore_errors=True)

    def kill_spare(self, spare: Child) -> bool:
        """Close a spare's task pipe (it exits quietly); False if it was never forked."""
        spare.close_task()
        with contextlib.suppress(SandboxError):
            self.resolve(spare)
        return spare.pid != -1

    def wait(self, child: Child) -> None:
        """Block until the (killed) ``child`` is gone."""
        if self._zygote is not None and not child.reaped:
            self._zygote.wait(child.pid, block=True)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(child.pid, 0)

    @property
    def zygote(self) -> bool:
        """Whether children come from the zygote (and can move into their cgroup)."""
        return self._zygote is not None

    def reap_one(self) -> list[int]:
        """Block until at least one released child exited; the pids reaped."""
        if self._zygote is None:
            for pid in list(self._exiting)[:1]:  # it was killed: the wait is short
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)
                self._exiting.discard(pid)
                return [pid]
            return []
        while self._exiting:
            self._zygote.wait_any(self._exiting)
            gone = self.reap_exited()
            if gone:
                return gone
        return []

    def reap_exited(self, *, block: bool = False) -> list[int]:
        """Reap the released children that exited (all of them with ``block``); their pids."""
        zygote = self._zygote
        if zygote is not None and not block:  # only the exits it reported since
            gone = [p for p in zygote.exits if p in self._exiting]
            for pid in gone:
                del zygote.exits[pid]
                self._exiting.discard(pid)
            return gone
        gone = []
        for pid in list(self._exiting):
            if zygote is not None:
                zygote.wait(pid, block=True)
                reaped = pid
            else:
                try:
                    reaped, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
                except ChildProcessError:
                    reaped = pid
            if reaped:
                self._exiting.discard(pid)
                gone.append(pid)
        return gone
