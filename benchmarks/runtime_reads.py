"""Per-call cost of clock and random reads inside ``deterministic(plan)``.

The runtime records the first read of each clock/random API in the access log
and must add (nearly) nothing to later reads. For each read this script times
N calls inside ``deterministic(Plan())`` and, as the baseline in the same run,
N calls under what the runtime's hot path was before recording existed:
time-machine's ``travel(tick=False)`` (its own ``Traveller.time_ns``) and a
seeded global ``random``. CPU time (``time.process_time``), best of R runs.

Run: ``python benchmarks/runtime_reads.py [N] [R]``. ``AUTOMOCK_PATH=dir``
imports automock from another checkout (e.g. an older commit extracted with
``git archive``) to compare runtimes directly.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, os.environ.get("AUTOMOCK_PATH") or str(Path(__file__).resolve().parent.parent))

_cpu = time.process_time  # not patched by the runtime (monotonic/perf_counter are virtual)


def loop_time(n: int) -> None:
    read = time.time
    for _ in range(n):
        read()


def loop_time_attr(n: int) -> None:
    for _ in range(n):
        time.time()


def loop_datetime_now(n: int) -> None:
    for _ in range(n):
        dt.datetime.now()


def loop_random(n: int) -> None:
    for _ in range(n):
        random.random()


def loop_randint(n: int) -> None:
    for _ in range(n):
        random.randint(1, 6)


LOOPS: dict[str, Callable[[int], None]] = {
    "time.time() (module attr)": loop_time_attr,
    "time.time (local ref)": loop_time,
    "datetime.now()": loop_datetime_now,
    "random.random()": loop_random,
    "random.randint(1, 6)": loop_randint,
}


def _best_ns(loop: Callable[[int], None], n: int, repeats: int) -> float:
    loop(1000)  # first read: recording, caches
    best = float("inf")
    for _ in range(repeats):
        start = _cpu()
        loop(n)
        best = min(best, _cpu() - start)
    return best / n * 1e9


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 1_000_000
    repeats = int(argv[1]) if len(argv) > 1 else 5
    import time_machine

    from automock.plan.model import Plan
    from automock.runtime import deterministic

    results: dict[str, tuple[float, float]] = {}
    for name, loop in LOOPS.items():
        travel = time_machine.travel(dt.datetime(2024, 1, 1, tzinfo=dt.UTC), tick=False)
        travel.start()
        random.seed(1)
        try:
            base = _best_ns(loop, n, repeats)
        finally:
            travel.stop()
        with deterministic(Plan()) as session:
            ours = _best_ns(loop, n, repeats)
        results[name] = (base, ours)
    print(f"N={n}, best of {repeats}, CPU ns per call (automock from {sys.path[0]})")
    print(f"{'read':28} {'baseline':>9} {'automock':>9} {'ratio':>6}")
    for name, (base, ours) in results.items():
        print(f"{name:28} {base:9.1f} {ours:9.1f} {ours / base:6.2f}")
    apis = sorted(a.api for a in session.log.accesses if a.kind in ("time", "random"))
    print("recorded:", ", ".join(apis) or "(none)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
