"""The ``cgroup`` layer: a memory and pids cgroup that bounds everything a run allocates.

``RLIMIT_AS`` bounds the address space of each process, not memory held by files:
memfd, tmpfs (``/tmp``, ``/dev/shm``), SysV shared memory, nor several processes
together. A memory cgroup charges all of it, whichever process of the run
allocated it, and the kernel's OOM killer ends the run when it goes over.

The *parent* (root) makes the cgroup and moves the child into it while the child
waits, before any program code runs (:func:`confine`); processes forked later
inherit it. Only root can do this, so nothing the program does takes it out. (A
batch child may move itself in first, through files the parent opened for it,
while it is still automock's code: :func:`confine` then finds it in and writes
nothing; what the layer reports is read back from the kernel either way.)

- cgroup v1: one directory under the ``memory`` hierarchy (``memory.limit_in_bytes``,
  and ``memory.memsw.limit_in_bytes`` at the same value, so nothing is swapped out to
  escape the bound) and one under ``pids`` (``pids.max``);
- cgroup v2: one directory on the unified mount where the parent cgroup delegates
  ``memory`` and ``pids`` (``memory.max``, ``memory.swap.max = 0``, ``pids.max``).

The ``cpu`` layer rides along where the controller is there (v1: a directory of its own
in the ``cpu`` hierarchy; v2: the same directory, where ``cpu`` is delegated): an equal
weight and a bandwidth quota of all CPUs but one (:func:`cpu_quota`), so a run or lane
with many busy processes gets one share, however many processes (or sessions, each of
which the kernel's autogroup would otherwise treat as one more party) it has.

Each directory is made below the cgroup this process is in, so the host's own limits
still hold above it. :meth:`Cgroup.remove` kills what is left in it and removes it;
:func:`sweep_stale` removes the (empty) cgroups of an automock process that died.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass

from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.mountinfo import mounts

__all__ = ["Cgroup", "confine", "cpu_layer", "create", "process_tree", "sweep_dead", "sweep_stale"]

_MIB = 1024 * 1024
_NAME = re.compile(r"^automock-(?:run|lane\d+)-(\d+)-\d+$")
_counter = itertools.count()
PIDS_SLACK = 4  # the sandbox's own processes (the PID namespace's intermediate) on top
_PERIOD = 100_000  # microseconds of CPU bandwidth accounting (the kernel's default period)


def _write(path: str, value: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(value)


def _read(path: str) -> str:
    try:
        with open(path, encoding="ascii", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def _hierarchies() -> tuple[dict[str, str], str | None]:
    """({v1 controller: mount point} for memory, pids and cpu, the v2 mount point or None)."""
    v1: dict[str, str] = {}
    v2: str | None = None
    for row in mounts("self"):
        if row["fstype"] == "cgroup":
            for name in row["super"] & {"memory", "pids", "cpu"}:
                v1.setdefault(name, row["point"])
        elif row["fstype"] == "cgroup2" and v2 is None:
            v2 = row["point"]
    return v1, v2


def _own(controller: str | None) -> str:
    """This process's cgroup path in the v1 hierarchy of ``controller`` (None: in v2)."""
    for line in _read("/proc/self/cgroup").splitlines():
        _, names, path = line.split(":", 2)
        if (controller is None and names == "") or (
            controller is not None and controller in names.split(",")
        ):
            return path
    return "/"


def _parents() -> tuple[int, list[str], str] | str:
    """(version, the parent directories to create in, the cpu controller's parent or why
    there is none: see :func:`_cpu_parent`), or why no cgroup can be made."""
    v1, v2 = _hierarchies()
    if "memory" in v1 and "pids" in v1:
        parents = [os.path.join(v1[c], _own(c).lstrip("/")) for c in ("memory", "pids")]
        if all(os.access(p, os.W_OK) for p in parents):
            if "cpu" not in v1:
                return 1, parents, "no cpu: the cgroup v1 cpu controller is not mounted"
            cpu = os.path.join(v1["cpu"], _own("cpu").lstrip("/"))
            return 1, parents, _cpu_parent(cpu, os.access(cpu, os.W_OK), 1)
    if v2 is not None:
        parent = os.path.join(v2, _own(None).lstrip("/"))
        delegated = set(_read(os.path.join(parent, "cgroup.subtree_control")).split())
        if {"memory", "pids"} <= delegated and os.access(parent, os.W_OK):
            return 2, [parent], _cpu_parent(parent, "cpu" in delegated, 2)
        if "memory" in v1 or "pids" in v1:
            return f"cgroup v1 memory+pids not both writable; v2 delegates {sorted(delegated)}"
        return f"cgroup v2 at {v2} does not delegate memory and pids (has {sorted(delegated)})"
    return "no writable memory and pids cgroup controllers (v1 or v2)"


def _cpu_parent(parent: str, usable: bool, version: int) -> str:
    """``parent`` (an absolute path) if the cpu controller can be used there, else why not
    (a sentence: never starts with ``/``)."""
    if usable:
        return parent
    if version == 1:
        return f"no cpu: the cgroup v1 cpu controller at {parent} is not writable"
    return "no cpu: our cgroup v2 parent does not delegate the cpu controller"


def cpu_quota() -> int:
    """The CPUs one run (or lane) may use at once: all but one, at least one, so a run's
    busy processes leave the rest of the machine a CPU."""
    return max(1, len(os.sched_getaffinity(0)) - 1)


@dataclass(frozen=True, slots=True)
class Cgroup:
    """One run's (or one batch lane's) cgroup: its directories and limits."""

    version: int
    dirs: tuple[str, ...]  # v1: (memory, pids) and cpu if made; v2: (unified,)
    memory_mb: int | None
    processes: int | None
    cpu: str = ""  # what the cpu controller sets ("" none: then ``cpu_note`` says why)
    cpu_note: str = ""

    def _controllers(self) -> tuple[str, ...]:
        """The controller of each of :attr:`dirs` (v1), or ``""`` for the unified one (v2)."""
        return ("memory", "pids", "cpu")[: len(self.dirs)] if self.version == 1 else ("",)

    def add(self, pid: int) -> None:
        """Move process ``pid`` (all its threads) into the cgroup."""
        for path in self.dirs:
            _write(os.path.join(path, "cgroup.procs"), str(pid))

    def open_procs(self) -> tuple[int, ...]:
        """``cgroup.procs`` of each directory, open for writing (close them after use)."""
        opened: list[int] = []
        try:
            for path in self.dirs:
                flags = os.O_WRONLY | os.O_CLOEXEC
                opened.append(os.open(os.path.join(path, "cgroup.procs"), flags))
        except OSError:
            for fd in opened:
                os.close(fd)
            raise
        return tuple(opened)

    def holds(self, pid: int) -> bool:
        """Whether the kernel shows process ``pid`` in every directory of this cgroup.

        Read from ``/proc/<pid>/cgroup`` (``hierarchy:controllers:path`` per line): one
        small file per process, where :meth:`members` reads every directory's list.
        """
        try:
            with open(f"/proc/{pid}/cgroup", "rb") as handle:
                lines = handle.read().decode("ascii", "replace").splitlines()
        except OSError:
            return False
        for directory, controller in zip(self.dirs, self._controllers(), strict=True):
            name = os.path.basename(directory)
            for line in lines:
                _, controllers, path = line.split(":", 2)
                ok = controller in controllers.split(",") if controller else controllers == ""
                if ok and os.path.basename(path) == name and directory.endswith(path):
                    break
            else:
                return False
        return True

    def members(self) -> set[int]:
        found: set[int] = set()
        for path in self.dirs:
            found.update(int(p) for p in _read(os.path.join(path, "cgroup.procs")).split())
        return found

    def _counter(self, name: str) -> int:
        files = ("memory.oom_control", "memory.events") if self.version == 1 else ("memory.events",)
        for file in files:
            match = re.search(rf"^{name} (\d+)$", _read(os.path.join(self.dirs[0], file)), re.M)
            if match:
                return int(match[1])
        return 0

    def oom_kills(self) -> int:
        """Processes the kernel's OOM killer ended in this cgroup so far."""
        return self._counter("oom_kill")

    def tasks(self, *, peak: bool = False) -> int | None:
        """Tasks (processes and threads) in the cgroup now, or the most it ever held
        (``pids.peak``; None where the kernel has no such file)."""
        name = "pids.peak" if peak else "pids.current"
        try:
            pids = self.dirs[1] if self.version == 1 else self.dirs[0]  # v1: (memory, pids, cpu)
            with open(os.path.join(pids, name), "rb") as handle:
                return int(handle.read())
        except (OSError, ValueError):
            return None

    def usage(self) -> int:
        """Bytes of memory charged to the cgroup now."""
        name = "memory.usage_in_bytes" if self.version == 1 else "memory.current"
        text = _read(os.path.join(self.dirs[0], name)).strip()
        return int(text) if text.isdigit() else 0

    def describe(self) -> str:
        memory = f"memory {self.memory_mb} MiB" if self.memory_mb else "memory unlimited"
        swap = " (swap included)" if self.memory_mb else ""
        pids = f"pids {self.processes + PIDS_SLACK}" if self.processes is not None else "pids -"
        return f"memory cgroup v{self.version}: {memory}{swap}, {pids}; memfd, tmpfs and shm count"

    def remove(self, wait: float = 3.0) -> bool:
        """Kill whatever is left in the cgroup and remove it; False if it stayed."""
        deadline = time.monotonic() + wait
        left = list(self.dirs)
        while left:
            for pid in self.members():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            for path in list(left):
                try:
                    os.rmdir(path)
                    left.remove(path)
                except FileNotFoundError:
                    left.remove(path)
                except OSError:
                    pass
            if left and time.monotonic() > deadline:
                return False
            if left:
                time.sleep(0.005)
        return True


def _limit(version: int, dirs: list[str], memory_mb: int | None, processes: int | None) -> None:
    if version == 1:
        memory, pids = dirs[:2]
        if memory_mb is not None:
            _write(os.path.join(memory, "memory.limit_in_bytes"), str(memory_mb * _MIB))
            with contextlib.suppress(OSError):  # no swap accounting: nothing to bound
                _write(os.path.join(memory, "memory.memsw.limit_in_bytes"), str(memory_mb * _MIB))
    else:
        memory = pids = dirs[0]
        if memory_mb is not None:
            _write(os.path.join(memory, "memory.max"), str(memory_mb * _MIB))
            with contextlib.suppress(OSError):
                _write(os.path.join(memory, "memory.swap.max"), "0")
    if processes is not None:
        _write(os.path.join(pids, "pids.max"), str(processes + PIDS_SLACK))


def _limit_cpu(version: int, path: str) -> str:
    """An equal weight (the kernel's default, written: a parent may set another) and a
    bandwidth quota of :func:`cpu_quota` CPUs in ``path``; what was set."""
    quota = cpu_quota()
    if version == 1:
        _write(os.path.join(path, "cpu.shares"), "1024")
        _write(os.path.join(path, "cpu.cfs_period_us"), str(_PERIOD))
        _write(os.path.join(path, "cpu.cfs_quota_us"), str(quota * _PERIOD))
    else:
        _write(os.path.join(path, "cpu.weight"), "100")
        _write(os.path.join(path, "cpu.max"), f"{quota * _PERIOD} {_PERIOD}")
    weight = "shares 1024" if version == 1 else "weight 100"
    return (
        f"cpu cgroup v{version}: {weight} (an equal share beside every other run and lane), "
        f"at most {quota} CPU{'s' if quota > 1 else ''}"
    )


def create(kind: str, memory_mb: int | None, processes: int | None) -> Cgroup | str:
    """A new cgroup (``kind``: ``run`` or ``lane<N>``) with the limits, or why not."""
    if os.geteuid() != 0:
        return "not root: cgroups are made by root"
    found = _parents()
    if isinstance(found, str):
        return found
    version, parents, cpu_parent = found
    with_cpu = version == 1 and cpu_parent.startswith("/")  # v1: a directory of its own
    sweep_stale([*parents, *([cpu_parent] if with_cpu else [])])
    name = f"automock-{kind}-{os.getpid()}-{next(_counter)}"
    made: list[str] = []
    try:
        for parent in [*parents, *([cpu_parent] if with_cpu else [])]:
            path = os.path.join(parent, name)
            os.mkdir(path, 0o700)
            made.append(path)
        _limit(version, made, memory_mb, processes)
    except OSError as exc:
        Cgroup(version, tuple(made), None, None).remove()
        return f"cgroup v{version} refused ({exc.strerror or exc})"
    cpu, note = "", "" if cpu_parent.startswith("/") else cpu_parent
    if cpu_parent.startswith("/"):
        try:
            cpu = _limit_cpu(version, made[-1])
        except OSError as exc:
            note = f"no cpu: the cpu controller refused ({exc.strerror or exc})"
    return Cgroup(version, tuple(made), memory_mb, processes, cpu, note)


def sweep_stale(parents: Iterable[str]) -> int:
    """Remove the empty cgroups of automock processes that no longer exist; how many are
    left (not empty yet). Never kills: a pid may live in another PID namespace; a dead
    owner's children die with it (``PR_SET_PDEATHSIG``)."""
    left = 0
    for parent in parents:
        try:
            names = os.listdir(parent)
        except OSError:
            continue
        for name in names:
            match = _NAME.match(name)
            if match and not os.path.exists(f"/proc/{match[1]}"):
                try:
                    os.rmdir(os.path.join(parent, name))
                except OSError as exc:  # EBUSY: not empty yet
                    left += not isinstance(exc, FileNotFoundError)
    return left


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (``/proc/<pid>/task/<tid>/children``)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            tids = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for tid in tids:
            text = _read(f"/proc/{current}/task/{tid}/children")
            todo.extend(int(c) for c in text.split() if int(c) not in found)
    return found


def cpu_layer(cgroup: Cgroup | str, memory: LayerStatus) -> LayerStatus:
    """The ``cpu`` layer: on when the parent made the cpu cgroup and ``memory`` (the layer
    :func:`confine` returned, read back from the kernel) shows the sandbox in every
    directory of ``cgroup``, the cpu one included."""
    if isinstance(cgroup, str):
        return LayerStatus("cpu", False, f"no cpu cgroup: {cgroup}")
    if not cgroup.cpu:
        return LayerStatus("cpu", False, cgroup.cpu_note)
    if not memory.active:
        return LayerStatus("cpu", False, f"not in its cpu cgroup: {memory.detail}")
    return LayerStatus("cpu", True, cgroup.cpu)


def confine(pid: int, cgroup: Cgroup | str) -> LayerStatus:
    """Move ``pid`` and every descendant into ``cgroup`` (again until none is left out:
    a process that forks meanwhile is caught on the next pass); the layer as it stands."""
    if isinstance(cgroup, str):
        return LayerStatus("cgroup", False, cgroup)
    moved = False
    try:
        for _ in range(8):
            missing = [p for p in process_tree(pid) if not cgroup.holds(p)]
            if not missing:  # the kernel's view: all in (already, or after the last pass)
                break
            moved = True
            for member in missing:
                with contextlib.suppress(ProcessLookupError):
                    cgroup.add(member)
    except OSError as exc:
        return LayerStatus("cgroup", False, f"could not move the sandbox in ({exc.strerror})")
    if moved and not all(cgroup.holds(p) for p in process_tree(pid)):  # read back
        return LayerStatus("cgroup", False, "the sandbox's processes are not all in its cgroup")
    return LayerStatus("cgroup", True, cgroup.describe())


def sweep_dead(wait: float = 0.0) -> None:
    """Remove the empty cgroups of automock processes that died on this host (a pool
    killed with its node or Ray actor never ran its own clean-up); for up to ``wait``
    seconds, again while the last of their processes are still dying."""
    if os.geteuid() != 0:
        return
    found = _parents()
    if isinstance(found, str):
        return
    version, parents, cpu_parent = found
    with_cpu = version == 1 and cpu_parent.startswith("/")
    deadline = time.monotonic() + wait
    while sweep_stale([*parents, *([cpu_parent] if with_cpu else [])]) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.05)
