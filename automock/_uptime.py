"""How long this process has existed, from the kernel's own record of its start.

``/proc/self/stat`` keeps a process's start time across ``exec``, so the figure covers the
interpreter's start-up and automock's restart of itself, not only what Python measured.
"""

from __future__ import annotations

import os

__all__ = ["process_seconds"]


def process_seconds() -> float | None:
    """Seconds since this process started (clock-tick resolution), or None off Linux."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            started = int(handle.read().rsplit(b")", 1)[1].split()[19])  # field 22: starttime
        with open("/proc/uptime", "rb") as handle:
            uptime = float(handle.read().split()[0])
    except (OSError, IndexError, ValueError):
        return None
    return max(0.0, uptime - started / os.sysconf("SC_CLK_TCK"))
