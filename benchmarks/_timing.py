"""Shared by the micro-benchmarks: the best of three timed loops, per call."""

from __future__ import annotations

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
