"""The real time while a frozen clock is active: the escape hatch.

A test that freezes the clock sometimes still needs the machine's time (a real
timeout, a log line's true stamp, measuring its own duration). :data:`escape_hatch`
reads the clocks the frozen block replaces, without leaving it::

    with automock.frozen_clock("2024-01-01"):
        escape_hatch.time()             # seconds since the epoch, now, for real
        escape_hatch.datetime_now(UTC)  # the real aware datetime
        escape_hatch.monotonic()        # the machine's monotonic clock

Outside a frozen block it reads the same clocks. The monotonic and perf counters
and ``sleep`` are captured when this module is imported, before any block replaces
them; the wall clock comes from time-machine's own escape hatch, whose C functions
stay real while it travels.
"""

from __future__ import annotations

import sys
import time as _time
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

__all__ = ["escape_hatch"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class _RealTime:
    """The machine's clocks (see the module docstring); one instance, :data:`escape_hatch`."""

    monotonic = staticmethod(_time.monotonic)
    monotonic_ns = staticmethod(_time.monotonic_ns)
    perf_counter = staticmethod(_time.perf_counter)
    perf_counter_ns = staticmethod(_time.perf_counter_ns)
    sleep = staticmethod(_time.sleep)

    def is_frozen(self) -> bool:
        """Whether a frozen clock is active (``time_machine.escape_hatch.is_travelling``)."""
        clock = sys.modules.get("automock.runtime.clock")
        return clock is not None and clock.current_clock() is not None

    def time_ns(self) -> int:
        hatch = _hatch()
        if hatch is None or not hatch.is_travelling():
            return _time.time_ns()
        return int(hatch.time.time_ns())

    def time(self) -> float:
        return self.time_ns() / 1e9

    def datetime_now(self, tz: tzinfo | None = None) -> datetime:
        """The real ``datetime.now(tz)`` (naive local time when ``tz`` is None)."""
        ns = self.time_ns()
        aware = _EPOCH + timedelta(microseconds=ns // 1000)
        return aware.astimezone(tz) if tz is not None else aware.astimezone().replace(tzinfo=None)


def _hatch() -> Any:
    machine = sys.modules.get("time_machine")  # loaded by any active frozen clock
    return None if machine is None else machine.escape_hatch


escape_hatch = _RealTime()
