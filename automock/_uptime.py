"""How long this process has existed, from the kernel's own record of its start.

``/proc/self/stat`` keeps a process's start time across ``exec``, so the figure covers the
interpreter's start-up and automock's restart of itself, not only what Python measured.
"""

from __future__ import annotations

import dataclasses
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from automock.report import RunReport

__all__ = ["process_seconds", "with_command_time"]


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


def with_command_time(report: RunReport) -> RunReport:
    """``report`` with ``timings["command"]``: this process's age, so the timings line
    accounts for the whole command (start-up, restart, plan loading or drafting, the runs)."""
    age = process_seconds()
    if age is None:
        return report
    age = max(age, report.timings.get("total", 0.0))
    return dataclasses.replace(report, timings={**report.timings, "command": age})
