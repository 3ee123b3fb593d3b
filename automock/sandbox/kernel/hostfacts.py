"""The ``time`` and ``hostfacts`` layers: what the host's kernel says about itself, hidden.

Namespaces leave some host facts in plain view: the clocks that count from boot
(``CLOCK_MONOTONIC``, ``CLOCK_BOOTTIME``, read from C past any Python mock), and
``/proc`` files that are the same for every namespace (the boot id, the uptime
and idle time, the boot time and CPU counters of ``/proc/stat``, the load). A
program could print them (a different output on every run) or learn from them
how long the host has been up.

* ``time``: a new time namespace whose offsets make both clocks start at
  :data:`CLOCK_START_S` (the runtime's virtual monotonic clock starts there too),
  whatever the host's uptime. Offsets apply only to processes that join the
  namespace, so the calling process joins it itself (``setns`` on its own
  ``time_for_children``): it must be single-threaded, and every process it forks
  is in it. Linux >= 5.6.
* ``hostfacts``: fixed files bound read-only over :data:`MASKED` in the private
  mount namespace, after the private ``/proc`` is mounted. They are written to a
  staging directory in the private ``/tmp`` (:data:`_STAGING`), bound, then unlinked.

Both are entered by the init of the program's PID namespace, before any program
code; the parent sees them from outside (:mod:`automock.sandbox.run.observe_kernel`).
"""

from __future__ import annotations

import contextlib
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
    unshare,
)

__all__ = [
    "BOOT_ID",
    "BOOT_TIME",
    "CLOCK_START_S",
    "MASKED",
    "hide_host",
    "listed_cpus",
    "masked_contents",
]

CLOCK_START_S = 1000  # seconds; as automock.runtime.clock's virtual monotonic start
BOOT_ID = "a0705eed-0000-4000-8000-000000000000"  # fixed, and plainly not a real one
BOOT_TIME = 1_577_836_800  # 2020-01-01T00:00:00Z: the btime line of the fixed /proc/stat
_TICKS = 100  # USER_HZ: the unit of /proc/stat's CPU counters
_CLOCKS = (("monotonic", time.CLOCK_MONOTONIC), ("boottime", time.CLOCK_BOOTTIME))
MASKED = ("/proc/sys/kernel/random/boot_id", "/proc/uptime", "/proc/stat", "/proc/loadavg")
_STAGING = "/tmp/.automock-facts"  # in the private /tmp, fresh for each run and candidate
_RO = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC


def _offset(clock: int) -> str:
    """``<seconds> <nanoseconds>`` that move ``clock`` from now to :data:`CLOCK_START_S`."""
    seconds, nanoseconds = divmod(CLOCK_START_S * 10**9 - time.clock_gettime_ns(clock), 10**9)
    return f"{seconds} {nanoseconds}"


def _time_namespace() -> LayerStatus:
    if not os.path.exists("/proc/self/ns/time"):
        return LayerStatus("time", False, "this kernel has no time namespaces (Linux >= 5.6)")
    try:
        unshare(CLONE_NEWTIME)
        text = "".join(f"{name} {_offset(clock)}\n" for name, clock in _CLOCKS)
        with open("/proc/self/timens_offsets", "wb") as handle:  # binary: no codec to import
            handle.write(text.encode())
        fd = os.open("/proc/self/ns/time_for_children", os.O_RDONLY | os.O_CLOEXEC)
        try:
            setns(fd, CLONE_NEWTIME)  # this process too, not only its children
        finally:
            os.close(fd)
    except OSError as exc:
        return LayerStatus("time", False, f"time namespace refused ({reason(exc)})")
    detail = f"new time namespace: CLOCK_MONOTONIC and CLOCK_BOOTTIME start at {CLOCK_START_S} s"
    return LayerStatus("time", True, detail)


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
    """The CPUs /proc/stat lists (one ``cpuN`` row each)."""
    with open("/proc/stat", "rb") as handle:
        return sum(1 for row in handle if row.startswith(b"cpu") and row[3:4].isdigit())


def _mask() -> LayerStatus:
    os.mkdir(_STAGING, 0o700)
    masked, failed, sources = [], [], []
    try:
        for index, (target, text) in enumerate(masked_contents(listed_cpus()).items()):
            sources.append(os.path.join(_STAGING, str(index)))
            with open(sources[-1], "wb") as handle:
                handle.write(text.encode())
            os.chmod(sources[-1], 0o444)
            try:
                mount(sources[-1], target, None, MS_BIND)
                mount(None, target, None, _RO)
                masked.append(target)
            except OSError as exc:
                failed.append(f"{target} ({reason(exc)})")
    finally:
        for source in sources:  # the bind mounts keep the files; no name is left in /tmp
            with contextlib.suppress(OSError):
                os.unlink(source)
        os.rmdir(_STAGING)
    detail = f"fixed read-only files over {', '.join(masked) or 'nothing'}"
    if failed:
        detail += f"; not masked: {', '.join(failed)}"
    return LayerStatus("hostfacts", bool(masked) and not failed, detail)


def hide_host(*, namespaces: bool, private_mounts: bool) -> tuple[LayerStatus, LayerStatus]:
    """The ``time`` and ``hostfacts`` layers, entered by the calling (single-threaded) process,
    the init of the program's PID namespace. ``namespaces``: this process may make namespaces
    (root, or a user namespace of its own); ``private_mounts``: it is in a private mount
    namespace with a private ``/tmp`` (never bind anything over the host's own ``/proc``)."""
    if not namespaces:
        clock = LayerStatus("time", False, "no time namespace: needs root or a user namespace")
    else:
        clock = _time_namespace()
    if not private_mounts:
        return clock, LayerStatus("hostfacts", False, "needs the private mount namespace")
    try:
        facts = _mask()
    except OSError as exc:
        facts = LayerStatus("hostfacts", False, f"host facts not masked ({reason(exc)})")
    return clock, facts
