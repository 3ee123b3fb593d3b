"""The virtual-clock scheduler in-process (the Python API and the pytest plugin's path)."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

from automock.runtime import deterministic
from automock.runtime.clock import frozen_clock

AT = "2024-03-04T12:00:00Z"


def _elapsed(start: float) -> float:
    return round(time.monotonic() - start, 3)


def test_join_timeout_is_virtual_and_the_sleeper_ends_later() -> None:
    with frozen_clock(AT, tick=0):
        start = time.monotonic()
        t = threading.Thread(target=time.sleep, args=(10,))
        t.start()
        t.join(timeout=3)
        assert (t.is_alive(), _elapsed(start)) == (True, 3)
        t.join()
        assert (t.is_alive(), _elapsed(start)) == (False, 10)


def test_notify_wakes_the_first_waiter_and_the_rest_time_out_in_order() -> None:
    cond = threading.Condition()
    out: list[tuple[str, bool, float]] = []
    with frozen_clock(AT, tick=0):
        start = time.monotonic()

        def waiter(name: str, timeout: float) -> None:
            with cond:
                out.append((name, cond.wait(timeout), _elapsed(start)))

        threads = [threading.Thread(target=waiter, args=(n, t)) for n, t in (("x", 5), ("y", 2))]
        for t in threads:
            t.start()
        time.sleep(1)
        with cond:
            cond.notify()
        for t in threads:
            t.join()
    assert out == [("x", True, 1), ("y", False, 2)]


def test_a_contended_lock_is_handed_over_when_its_holder_wakes() -> None:
    with frozen_clock(AT, tick=0):
        lock = threading.Lock()
        start = time.monotonic()
        got: list[tuple[bool, float]] = []

        def holder() -> None:
            with lock:
                time.sleep(4)

        t = threading.Thread(target=holder)
        t.start()
        got.append((lock.acquire(timeout=1), _elapsed(start)))
        got.append((lock.acquire(), _elapsed(start)))
        t.join()
    assert got == [(False, 1), (True, 4)]


def test_pool_results_complete_in_virtual_time_order() -> None:
    def job(n: int) -> int:
        time.sleep(0.1 * (5 - n))
        return n

    with deterministic(), ThreadPoolExecutor(3) as pool:
        start = time.monotonic()
        done = [f.result() for f in as_completed([pool.submit(job, n) for n in range(5)])]
        elapsed = round(_elapsed(start), 2)  # 1 ms per read of the clock (the plan's tick)
    # 2, 1, 0 end at 0.3, 0.4, 0.5; 3 (started at 0.3) and 4 (at 0.4) tie with 0 at 0.5
    assert (done, elapsed) == ([2, 1, 0, 3, 4], 0.5)


def test_asyncio_to_thread_and_timers_share_one_timeline() -> None:
    async def main() -> list[str]:
        order: list[str] = []

        async def task(name: str, delay: float) -> None:
            await asyncio.sleep(delay)
            order.append(name)

        def blocking(name: str, delay: float) -> None:
            time.sleep(delay)
            order.append(name)

        await asyncio.gather(
            task("loop 0.3", 0.3),
            asyncio.to_thread(blocking, "thread 0.2", 0.2),
            task("loop 0.1", 0.1),
        )
        return order

    with frozen_clock(AT, tick=0):
        assert asyncio.run(main()) == ["loop 0.1", "thread 0.2", "loop 0.3"]


def test_a_sleeper_outliving_its_block_finishes_in_real_time() -> None:
    woke = threading.Event()
    with frozen_clock(AT):
        t = threading.Thread(target=lambda: (time.sleep(0.2), woke.set()))
        t.start()
        time.sleep(0.1)
    assert not woke.is_set()  # its deadline is 0.1 s past the block's end: waited in real time
    t.join(timeout=30)
    assert woke.is_set()
