"""Shared by the benchmarks: the best of three timed loops, per call; CPU and page faults."""

from __future__ import annotations

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
