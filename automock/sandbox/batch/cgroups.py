"""The batch pool's memory and pids cgroups: one per lane, made once, reused.

A lane runs one candidate at a time, so its cgroup bounds that candidate: a child
the zygote forks moves itself in while it gets ready (through ``cgroup.procs``
files the pool opened: :meth:`LaneCgroups.procs_files`); right before the pool sends
the candidate it checks, from the kernel's lists, that the child is in, or moves it
(:meth:`LaneCgroups.confine`), and reads the lane's OOM-kill counter before and after.
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
from typing import Any

from automock.sandbox.kernel import cgroup as cg
from automock.sandbox.kernel.layers import LayerStatus

__all__ = ["LaneCgroups"]


class LaneCgroups:
    """Lane -> its cgroup (or why there is none), made on first use."""

    def __init__(self, limits: Any) -> None:
        self._limits = limits
        self._lanes: dict[int, cg.Cgroup | str] = {}
        self._runs: dict[int, tuple[LayerStatus, int]] = {}  # pid -> layer, OOM kills before
        self._files: dict[int, tuple[int, ...]] = {}  # lane -> its open cgroup.procs files

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

    def confine(self, pid: int, lane: int) -> None:
        """Move child ``pid`` (and anything it forked) into ``lane``'s cgroup, unless the
        kernel shows they are all in already."""
        group = self._group(lane)
        layer = cg.confine(pid, group)
        before = group.oom_kills() if isinstance(group, cg.Cgroup) else 0
        self._runs[pid] = (layer, before)

    def finish(self, pid: int, lane: int) -> tuple[dict[str, Any], int]:
        """(the cgroup layer of child ``pid``, OOM kills in its lane since it was moved in)."""
        layer, before = self._runs.pop(pid, (LayerStatus("cgroup", False, "not confined"), 0))
        group = self._lanes.get(lane)
        kills = group.oom_kills() - before if isinstance(group, cg.Cgroup) and layer.active else 0
        return layer.to_dict(), kills

    def close(self) -> None:
        for files in self._files.values():
            for fd in files:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._files.clear()
        for group in self._lanes.values():
            if isinstance(group, cg.Cgroup):
                group.remove()
        self._lanes.clear()
