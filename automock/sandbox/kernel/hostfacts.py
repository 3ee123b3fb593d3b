"""The ``time`` and ``hostfacts`` layers: what the host's kernel says about itself, hidden.

Namespaces leave some host facts in plain view: the clocks that count from boot
(``CLOCK_MONOTONIC``, ``CLOCK_BOOTTIME``, read from C past any Python mock), and
``/proc`` files that are the same for every namespace (the boot id, the uptime
and idle time, the boot time and CPU counters of ``/proc/stat``, the load). A
program could print them (a different output on every run) or learn from them
how long the host has been up.

* ``time``: a new time namespace whose offsets put both clocks at
  :data:`CLOCK_START_S` (where the runtime's virtual monotonic clock starts too),
  whatever the host's uptime. Offsets apply only to processes that join the
  namespace after they are written. A run's init joins a fresh one itself once it
  has its spec, so the clocks start with the run and not ahead of it
  (:func:`time_layer`: ``setns`` on its own ``time_for_children``, which needs a
  single-threaded process); the batch pool's zygote makes one for the children it
  forks (:func:`time_for_children`), so a child pays nothing for it.
* ``hostfacts``: fixed read-only files bound over :data:`MASKED` in the private
  mount namespace, after the private ``/proc`` is mounted. The files are written
  once to a small read-only tmpfs (:func:`stage`; a bind of a file on a read-only
  mount is read-only too): by each run, which then detaches it, and by the
  zygote for every child of the pool, which only opens and binds them
  (:func:`open_staged`, :func:`bind_staged`).

The parent sees both layers of a run from outside
(:mod:`automock.sandbox.run.observe_kernel`).
"""

from __future__ import annotations

import os
import time

from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.syscalls import (
    CLONE_NEWTIME,
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_RDONLY,
    MS_REMOUNT,
    mount,
    reason,
    setns,
    umount,
    unshare,
)

__all__ = [
    "BOOT_ID",
    "BOOT_TIME",
    "CLOCK_START_S",
    "MASKED",
    "STAGING",
    "bind_staged",
    "clocks_of",
    "facts_layer",
    "listed_cpus",
    "masked_contents",
    "near_start",
    "open_staged",
    "stage",
    "time_for_children",
    "time_layer",
]

CLOCK_START_S = 1000  # seconds; as automock.runtime.clock's virtual monotonic start
BOOT_ID = "a0705eed-0000-4000-8000-000000000000"  # fixed, and plainly not a real one
BOOT_TIME = 1_577_836_800  # 2020-01-01T00:00:00Z: the btime line of the fixed /proc/stat
_TICKS = 100  # USER_HZ: the unit of /proc/stat's CPU counters
_CLOCKS = (("monotonic", 1), ("boottime", 7))  # Linux's clock ids (no CLOCK_BOOTTIME elsewhere)
MASKED = ("/proc/sys/kernel/random/boot_id", "/proc/uptime", "/proc/stat", "/proc/loadavg")
STAGING = "/tmp/.automock-facts"  # under a private /tmp (a run's, or the pool's prepared one)
_FLAGS = MS_NOSUID | MS_NODEV | MS_NOEXEC
_MNT_DETACH = 2


def _offset(clock: int) -> str:
    """``<seconds> <nanoseconds>`` that move ``clock`` from now to :data:`CLOCK_START_S`, in
    fixed widths: the text has the same length whatever the host's uptime (the allocations
    of a run's init before the program: :func:`_occurrences`)."""
    seconds, nanoseconds = divmod(CLOCK_START_S * 10**9 - time.clock_gettime_ns(clock), 10**9)
    return f"{seconds:020d} {nanoseconds:09d}"


def time_for_children() -> LayerStatus:
    """A new time namespace for the processes this one forks from now on (not for itself)."""
    if not os.path.exists("/proc/self/ns/time"):
        return LayerStatus("time", False, "this kernel has no time namespaces (Linux >= 5.6)")
    try:
        unshare(CLONE_NEWTIME)
        text = "".join(f"{name} {_offset(clock)}\n" for name, clock in _CLOCKS)
        with open("/proc/self/timens_offsets", "wb") as handle:  # binary: no codec to import
            handle.write(text.encode())
    except OSError as exc:
        return LayerStatus("time", False, f"time namespace refused ({reason(exc)})")
    detail = f"new time namespace: CLOCK_MONOTONIC and CLOCK_BOOTTIME start at {CLOCK_START_S} s"
    return LayerStatus("time", True, detail)


def _time_namespace() -> LayerStatus:
    """A new time namespace for this (single-threaded) process and what it forks."""
    layer = time_for_children()
    if not layer.active:
        return layer
    try:
        fd = os.open("/proc/self/ns/time_for_children", os.O_RDONLY | os.O_CLOEXEC)
        try:
            setns(fd, CLONE_NEWTIME)  # this process too, not only its children
        finally:
            os.close(fd)
    except OSError as exc:
        return LayerStatus("time", False, f"time namespace not joined ({reason(exc)})")
    return layer


def clocks_of(pid: int) -> dict[str, float]:
    """The clocks, now, of the time namespace process ``pid``'s children go to: its
    ``timens_offsets`` added to this process's own clocks ({} when unreadable)."""
    try:
        with open(f"/proc/{pid}/timens_offsets", "rb") as handle:
            rows = [row.split() for row in handle]
    except OSError:
        return {}
    clocks, known = {}, {name.encode(): (name, clock) for name, clock in _CLOCKS}
    for row in rows:
        if len(row) == 3 and row[0] in known and row[1].lstrip(b"-").isdigit():
            name, clock = known[row[0]]
            offset = int(row[1]) + (int(row[2]) / 1e9 if row[2].isdigit() else 0.0)
            clocks[name] = time.clock_gettime(clock) + offset
    return clocks


def near_start(clocks: dict[str, float], slack: float = 3600.0) -> bool:
    """Whether both clocks (:func:`clocks_of`) are at most ``slack`` seconds past the start:
    the namespace was made to start there, not at the host's uptime."""
    names = [name for name, _ in _CLOCKS]
    return all(0 <= clocks.get(name, -1.0) - CLOCK_START_S < slack for name in names)


def masked_contents(cpus: int) -> dict[str, str]:
    """What each path of :data:`MASKED` reads inside the sandbox, for ``cpus`` CPUs: the
    boot id, an uptime of :data:`CLOCK_START_S` s spent idle, a ``/proc/stat`` whose
    counters say as much and whose ``btime`` is :data:`BOOT_TIME`, no load."""
    idle = CLOCK_START_S * _TICKS
    rows = [f"cpu  0 0 0 {idle * cpus} 0 0 0 0 0 0"]
    rows += [f"cpu{n} 0 0 0 {idle} 0 0 0 0 0 0" for n in range(cpus)]
    rows += ["intr 0", "ctxt 0", f"btime {BOOT_TIME}", "processes 1"]
    rows += ["procs_running 1", "procs_blocked 0", "softirq 0 0 0 0 0 0 0 0 0 0 0"]
    return {
        MASKED[0]: BOOT_ID + "\n",
        MASKED[1]: f"{CLOCK_START_S}.00 {CLOCK_START_S * cpus}.00\n",
        MASKED[2]: "\n".join(rows) + "\n",
        MASKED[3]: "0.00 0.00 0.00 1/1 1\n",
    }


def listed_cpus() -> int:
    """The CPUs the host's /proc/stat lists (one ``cpuN`` row each, after the ``cpu`` row of
    them all): counted as :func:`_occurrences`, in the same allocations whatever the counters
    read (a run's init calls it before the program, :func:`facts_layer`)."""
    return _occurrences("/proc/stat", b"\ncpu")


_CHUNK = 16384


def _occurrences(path: str, needle: bytes) -> int:
    """How often ``needle`` occurs in the file at ``path``, read through one buffer of a fixed
    size. Its rows are never made into objects: the host's counters (``/proc/stat``'s CPU times,
    ``procs_running``) change their lengths from one moment to the next, and rows of other
    lengths would leave the allocator of an address-stable run's child in another state, so
    the program's objects at other addresses (:mod:`automock.sandbox.kernel.addresses`)."""
    keep = len(needle) - 1  # the tail a match may start in: carried to the next read
    buffer = bytearray(_CHUNK)
    view = memoryview(buffer)
    count = held = 0
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        while got := os.readv(fd, [view[held:]]):
            end = held + got
            count += buffer.count(needle, 0, end)
            held = min(keep, end)
            buffer[:held] = view[end - held : end]
    finally:
        view.release()
        os.close(fd)
    return count


def stage(directory: str = STAGING) -> None:
    """Write the fixed files, named 0, 1, ... in :data:`MASKED`'s order, to a new read-only
    tmpfs on ``directory`` (made here, under a private ``/tmp``)."""
    os.mkdir(directory, 0o755)
    mount("tmpfs", directory, "tmpfs", _FLAGS, "mode=755,size=64k")
    for index, text in enumerate(masked_contents(listed_cpus()).values()):
        with open(os.path.join(directory, str(index)), "wb") as handle:
            handle.write(text.encode())
    mount(None, directory, None, MS_REMOUNT | MS_RDONLY | _FLAGS)


def open_staged(directory: str = STAGING) -> list[int]:
    """``O_PATH`` fds of the staged files, in :data:`MASKED`'s order ([] if not staged);
    opened before a fresh tmpfs hides ``directory``, after a private mount namespace
    copy was made (a bind takes its source from the caller's own namespace)."""
    fds: list[int] = []
    try:
        for index in range(len(MASKED)):
            fds.append(os.open(os.path.join(directory, str(index)), os.O_PATH | os.O_CLOEXEC))
    except OSError:
        for fd in fds:
            os.close(fd)
        return []
    return fds


def bind_staged(fds: list[int]) -> LayerStatus:
    """Bind the staged files over :data:`MASKED` (read-only, as their mount); close ``fds``."""
    masked, failed = [], []
    try:
        for fd, target in zip(fds, MASKED, strict=True):
            try:
                mount(f"/proc/self/fd/{fd}", target, None, MS_BIND)
                masked.append(target)
            except OSError as exc:
                failed.append(f"{target} ({reason(exc)})")
    finally:
        for fd in fds:
            os.close(fd)
    detail = f"fixed read-only files over {', '.join(masked) or 'nothing'}"
    if failed:
        detail += f"; not masked: {', '.join(failed)}"
    return LayerStatus("hostfacts", bool(masked) and not failed, detail)


def _mask(fds: list[int]) -> LayerStatus:
    """Bind ``fds`` (staged ahead), or stage the files now, bind them, and detach the staging."""
    if fds:
        return bind_staged(fds)
    stage()
    try:
        return bind_staged(open_staged())
    finally:  # the binds keep the files; nothing of the staging is left in /tmp
        umount(STAGING, _MNT_DETACH)
        os.rmdir(STAGING)


def time_layer(namespaces: bool) -> LayerStatus:
    """The ``time`` layer of a run: this (single-threaded) process, init of the program's
    PID namespace, joins a new time namespace whose clocks start now, at
    :data:`CLOCK_START_S`. ``namespaces``: it may make namespaces (root, or a user
    namespace of its own)."""
    if not namespaces:
        return LayerStatus("time", False, "no time namespace: needs root or a user namespace")
    return _time_namespace()


def facts_layer(private_mounts: bool, staged: list[int] | None = None) -> LayerStatus:
    """The ``hostfacts`` layer, entered by init of the program's PID namespace once its
    private ``/proc`` is mounted. ``private_mounts``: it is in a private mount namespace
    with a private ``/tmp`` (nothing is ever bound over the host's own ``/proc``);
    ``staged``: the staged files, opened ahead (:func:`open_staged`), else staged now."""
    if not private_mounts:
        for fd in staged or ():
            os.close(fd)
        return LayerStatus("hostfacts", False, "needs the private mount namespace")
    try:
        return _mask(staged or [])
    except OSError as exc:
        return LayerStatus("hostfacts", False, f"host facts not masked ({reason(exc)})")
