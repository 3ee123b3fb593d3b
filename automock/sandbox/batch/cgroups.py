"""The batch pool's memory, pids and cpu cgroups: one per lane, made once, reused.

A lane runs one candidate at a time, so its cgroup bounds that candidate: a child
the zygote forks moves itself in while it gets ready (through ``cgroup.procs``
files the pool opened: :meth:`LaneCgroups.procs_files`); right before the pool sends
the candidate it checks, from the kernel's lists, that the child is in, or moves it
(:meth:`LaneCgroups.confine`), and reads the lane's OOM-kill counter before and after.
The checks read the kernel's own view (:meth:`~automock.sandbox.kernel.cgroup.Cgroup.holds`
for the child and anything it forked), and the OOM-kill counter through a file the pool
keeps open and re-reads from offset 0 (the kernel formats it anew on each such read; a
``cgroup.procs`` is not kept open: v1 caches its pid list per open file).
A lane is given to a new child only once its previous child was reaped, so the
cgroup holds nothing of an earlier candidate. A cgroup per candidate would cost a ``mkdir`` and an
``rmdir`` in two hierarchies per candidate (~0.35 ms measured here) and leave the
kernel many offline memory cgroups to free; one per lane costs only the move.
Memory a candidate held is freed when it dies (its tmpfs goes with its mount
namespace), so the next candidate of the lane starts from an empty cgroup.
The cgroups are removed when the pool closes (:meth:`LaneCgroups.close`).
"""

from __future__ import annotations

import contextlib
import os
import re
from typing import Any

from automock.sandbox.kernel import cgroup as cg
from automock.sandbox.kernel.layers import LayerStatus

__all__ = ["LaneCgroups"]

_OOM_KILL = re.compile(rb"^oom_kill (\d+)$", re.M)


class LaneCgroups:
    """Lane -> its cgroup (or why there is none), made on first use."""

    def __init__(self, limits: Any) -> None:
        self._limits = limits
        self._lanes: dict[int, cg.Cgroup | str] = {}
        self._runs: dict[int, tuple[LayerStatus, int]] = {}  # pid -> layer, OOM kills before
        self._files: dict[int, tuple[int, ...]] = {}  # lane -> its open cgroup.procs files
        self._counters: dict[int, int] = {}  # lane -> its OOM-kill counter file, open to read

    def _group(self, lane: int) -> cg.Cgroup | str:
        group = self._lanes.get(lane)
        if group is None:
            group = cg.create(f"lane{lane}", self._limits.memory_mb, self._limits.processes)
            self._lanes[lane] = group
        return group

    def procs_files(self, lane: int) -> tuple[int, ...]:
        """Open ``cgroup.procs`` files of ``lane``'s cgroup, for a child to move itself in.

        Moving a process waits for the kernel (an RCU grace period, ~1 ms here): a
        child the zygote forks writes ``0`` to these while it gets ready, off the
        pool's loop; :meth:`confine` then only checks that it is in.
        """
        if lane not in self._files:
            group = self._group(lane)
            files: tuple[int, ...] = ()
            if isinstance(group, cg.Cgroup):
                with contextlib.suppress(OSError):
                    files = group.open_procs()
            self._files[lane] = files
        return self._files[lane]

    def inside(self, pid: int, lane: int) -> bool:
        """Whether the kernel shows child ``pid`` of the zygote in ``lane``'s cgroup (a child
        still on its way in: :meth:`confine` would wait for the kernel), and so anything
        it forked: such a child moves itself in first (its write returns once the kernel
        moved it), and forks only after (its pair's candidate process, which starts in its
        parent's cgroup), running automock's code until its candidate comes. One read of
        the kernel's list, where the tree's (two processes: three reads more) cost the
        pool's loop ~0.1 ms a candidate."""
        group = self._group(lane)
        return isinstance(group, cg.Cgroup) and group.holds(pid)

    def confine(self, pid: int, lane: int, *, seen_inside: bool = False) -> None:
        """Move child ``pid`` (and anything it forked) into ``lane``'s cgroup, unless the
        kernel shows they are all in already (``seen_inside``: :meth:`inside` just did;
        a child in its cgroup cannot leave it: only root moves processes)."""
        group = self._group(lane)
        if seen_inside and isinstance(group, cg.Cgroup):
            layer = LayerStatus("cgroup", True, group.describe())
        else:  # reads the kernel's view first; moves only what is not in
            layer = cg.confine(pid, group)
        self._runs[pid] = (layer, self._oom_kills(lane, group))

    def finish(self, pid: int, lane: int) -> tuple[list[dict[str, Any]], int]:
        """(the cgroup and cpu layers of child ``pid``, OOM kills in its lane since it was
        moved in)."""
        layer, before = self._runs.pop(pid, (LayerStatus("cgroup", False, "not confined"), 0))
        group = self._lanes.get(lane)
        kills = self._oom_kills(lane, group) - before if group is not None and layer.active else 0
        cpu = cg.cpu_layer(group if group is not None else "not made", layer)
        return [layer.to_dict(), cpu.to_dict()], kills

    def _oom_kills(self, lane: int, group: cg.Cgroup | str | None) -> int:
        """The lane's OOM-kill counter, read through a file kept open (else as a new read)."""
        if not isinstance(group, cg.Cgroup):
            return 0
        fd = self._counters.get(lane)
        if fd is None:
            name = "memory.oom_control" if group.version == 1 else "memory.events"
            try:
                fd = os.open(os.path.join(group.dirs[0], name), os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                return group.oom_kills()
            self._counters[lane] = fd
        try:
            match = _OOM_KILL.search(os.pread(fd, 4096, 0))
        except OSError:
            return group.oom_kills()
        return int(match[1]) if match else group.oom_kills()

    def close(self) -> None:
        for fd in self._counters.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._counters.clear()
        for files in self._files.values():
            for fd in files:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._files.clear()
        for group in self._lanes.values():
            if isinstance(group, cg.Cgroup):
                group.remove()
        self._lanes.clear()
