"""Shared by the benchmarks: the best of three timed loops, per call; CPU and page faults;
the load average line."""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable


def per_call_us(fn: Callable[[], object], n: int) -> float:
    """Microseconds per call of ``fn``: best of three loops of ``n`` calls, after a warm-up
    call (the first use imports and caches)."""
    fn()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, time.perf_counter() - start)
    return best / n * 1e6


def usage() -> tuple[float, int]:
    """CPU seconds (user + system) and minor page faults of this process and of the children
    it has reaped (and theirs: a pool's zygote reaps every sandbox it forked): load-robust
    cost figures."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
    return cpu, me.ru_minflt + children.ru_minflt


def load_line(before: float, after: float) -> str:
    """The load average at start and end, flagged when the machine was busy at the start
    (above 2 on the 2 CPUs this was measured on, the figures are unreliable)."""
    busy = "" if before < 2 else ": busy, figures unreliable"
    return (
        f"load average before {before:.1f}, at the end {after:.1f} on {os.cpu_count()} CPUs{busy}"
    )
