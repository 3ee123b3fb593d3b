"""Per-sleep cost of the virtual-clock scheduler, against the clock jump it replaced.

Before the scheduler, ``time.sleep(s)`` under ``frozen_clock`` only moved the
virtual clock (``VirtualClock.advance``); that call, timed in the same run, is
the baseline. Measured, in CPU-bound loops of N sleeps:

- one thread: ``time.sleep`` through the scheduler (a heap push and pop, no wait);
- two threads sleeping in turn: each sleep hands the CPU to the other thread
  (a real thread switch per sleep), which is what ordering threads costs;
- ``asyncio.sleep`` in one task, per sleep (a loop timer and one loop iteration).

Run: ``python benchmarks/scheduler_sleep.py [N]``
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

INSTANT = "2024-01-01T12:00:00+00:00"
TARGET_ONE_THREAD = 10.0  # x the bare clock jump
TARGET_TWO_THREADS_US = 100.0  # us per sleep, a thread switch included


def _best_us(fn: Callable[[int], None], n: int) -> float:
    """Best of 3 runs of ``fn(n)`` (which enters its own clock), in us per iteration, real time."""
    fn(min(n, 100))  # warm up
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - start)
    return best / n * 1e6


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 20_000
    from automock.runtime.clock import current_clock, frozen_clock

    def timed(fn: Callable[[int], None]) -> Callable[[int], None]:
        def run(k: int) -> None:
            with frozen_clock(INSTANT):
                fn(k)

        return run

    def bare_jump(k: int) -> None:
        clock = current_clock()
        assert clock is not None
        for _ in range(k):
            clock.advance(0.001)

    def one_thread(k: int) -> None:
        for _ in range(k):
            time.sleep(0.001)

    def two_threads(k: int) -> None:
        other = threading.Thread(target=one_thread, args=(k // 2,))
        other.start()
        one_thread(k // 2)
        other.join()

    def one_task(k: int) -> None:
        async def sleeper() -> None:
            for _ in range(k):
                await asyncio.sleep(0.001)

        asyncio.run(sleeper())

    base = _best_us(timed(bare_jump), n)
    one = _best_us(timed(one_thread), n)
    two = _best_us(timed(two_threads), n // 10)
    task = _best_us(timed(one_task), n // 10)
    ok_one = one / base <= TARGET_ONE_THREAD
    ok_two = two <= TARGET_TWO_THREADS_US
    print(f"{n} sleeps per loop (best of 3); baseline: the bare virtual clock jump")
    print(f"bare clock jump (the old time.sleep)      : {base:8.2f} us")
    print(
        f"time.sleep, one thread, scheduler         : {one:8.2f} us  "
        f"{one / base:5.1f}x  target <= {TARGET_ONE_THREAD:.0f}x  {'PASS' if ok_one else 'FAIL'}"
    )
    print(
        f"time.sleep, two threads taking turns      : {two:8.2f} us  "
        f"{two / base:5.0f}x  target <= {TARGET_TWO_THREADS_US:.0f} us  {'PASS' if ok_two else 'FAIL'}"
    )
    print(f"asyncio.sleep, one task (loop timer)      : {task:8.2f} us  {task / base:5.0f}x")
    return 0 if ok_one and ok_two else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
