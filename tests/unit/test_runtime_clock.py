"""frozen_clock: frozen wall clock, virtual monotonic clock, instant sleeps, asyncio."""

from __future__ import annotations

import asyncio
import datetime as dt
import time

import pytest

from automock.runtime.clock import current_clock, frozen_clock

AT = "2024-03-04T05:06:07+00:00"
EPOCH = dt.datetime.fromisoformat(AT).timestamp()


def test_wall_clock_is_frozen_for_every_reader() -> None:
    with frozen_clock(AT):
        assert time.time() == EPOCH
        assert time.time_ns() == int(EPOCH) * 10**9
        assert dt.datetime.now(dt.UTC) == dt.datetime.fromisoformat(AT)
        assert dt.datetime.utcnow() == dt.datetime(2024, 3, 4, 5, 6, 7)
        assert dt.date.today() == dt.date(2024, 3, 4) or dt.date.today() == dt.date(2024, 3, 5)
        assert time.gmtime()[:6] == (2024, 3, 4, 5, 6, 7)
        assert time.strftime("%Y-%m-%d", time.gmtime()) == "2024-03-04"
        assert time.time() == time.time()


def test_monotonic_ticks_and_sleep_advances_both_clocks() -> None:
    with frozen_clock(AT, tick=0.5) as clock:
        first = time.monotonic()
        second = time.monotonic()
        assert second - first == pytest.approx(0.5)
        assert time.perf_counter_ns() > time.monotonic_ns() - 10**9
        before_wall = time.time()
        before_mono = time.monotonic()
        time.sleep(3600)  # returns at once
        assert time.time() - before_wall == pytest.approx(3600)
        assert time.monotonic() - before_mono == pytest.approx(3600.5)
        assert clock.slept == pytest.approx(3600)


def test_deadline_loop_on_monotonic_ends() -> None:
    with frozen_clock(AT, tick=0.01):
        deadline = time.monotonic() + 5
        spins = 0
        while time.monotonic() < deadline:
            spins += 1
        assert spins == 499


def test_real_clocks_restored_after_exit() -> None:
    originals = (time.monotonic, time.perf_counter, time.sleep, asyncio.sleep)
    with frozen_clock(AT):
        assert time.monotonic is not originals[0]
    assert (time.monotonic, time.perf_counter, time.sleep, asyncio.sleep) == originals
    assert abs(time.time() - EPOCH) > 3600  # the real clock again
    assert current_clock() is None


def test_nested_clocks_restore_the_outer_one() -> None:
    with frozen_clock(AT):
        with frozen_clock("2030-01-01T00:00:00Z"):
            assert dt.datetime.now(dt.UTC).year == 2030
        assert time.time() == EPOCH


def test_decorator_on_sync_function_applies_per_call() -> None:
    @frozen_clock(AT)
    def stamp() -> float:
        time.sleep(10)
        return time.time()

    assert stamp() == stamp() == EPOCH + 10


def test_decorator_on_async_function() -> None:
    @frozen_clock(AT)
    async def stamp() -> float:
        await asyncio.sleep(7)
        return time.time()

    assert asyncio.run(stamp()) == EPOCH + 7
    assert abs(time.time() - EPOCH) > 3600


async def _never() -> None:
    await asyncio.Event().wait()


def test_asyncio_gather_sleep_and_wait_for_timeout() -> None:
    async def worker(i: int) -> tuple[int, float]:
        await asyncio.sleep(100 * (3 - i))
        return i, time.time()

    async def main() -> tuple[list[tuple[int, float]], bool, float]:
        loop = asyncio.get_running_loop()
        start = loop.time()
        results = await asyncio.gather(*(worker(i) for i in range(3)))
        timed_out = False
        try:
            await asyncio.wait_for(_never(), timeout=30)
        except TimeoutError:
            timed_out = True
        return list(results), timed_out, loop.time() - start

    with frozen_clock(AT):
        results, timed_out, elapsed = asyncio.run(main())
    assert [i for i, _ in results] == [0, 1, 2]
    assert timed_out
    assert elapsed >= 30 + 300  # virtual loop time covers sleeps and the timeout


@pytest.mark.asyncio
async def test_inside_an_already_running_loop() -> None:
    with frozen_clock(AT):
        await asyncio.sleep(50)
        assert time.time() == EPOCH + 50
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(_never(), timeout=5)


def test_bad_tick_is_refused() -> None:
    with pytest.raises(ValueError, match="tick"):
        frozen_clock(AT, tick=-1)


def test_references_kept_past_the_block_fall_back_to_the_real_clock() -> None:
    # Libraries such as Hypothesis keep ``time.perf_counter`` when first imported;
    # if that happens inside the block they must still work after it ends.
    import time

    from automock.runtime.clock import frozen_clock

    with frozen_clock("2024-01-01T00:00:00Z"):
        kept_perf, kept_mono, kept_sleep = time.perf_counter, time.monotonic, time.sleep
    before = kept_mono()
    kept_sleep(0.001)
    assert kept_perf() > 0
    assert kept_mono() >= before
    assert kept_perf is not time.perf_counter  # the block really had patched it


def test_time_machine_still_handles_testcases_and_zoneinfo_after_automock_loaded_it() -> None:
    """automock imports time-machine without unittest and zoneinfo (stand-ins for TestCase and
    ZoneInfo); a user's ``@time_machine.travel`` on a real ``unittest.TestCase`` and a travel to a
    ZoneInfo-aware instant must still work, in a new process where neither was loaded before."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(
        """
        import sys
        from automock import frozen_clock
        with frozen_clock():
            pass
        assert "unittest" not in sys.modules, "the stand-in should spare the import"
        assert "zoneinfo" not in sys.modules, "the stand-in should spare the import"
        import datetime, time, unittest, zoneinfo, time_machine

        paris = zoneinfo.ZoneInfo("Europe/Paris")
        with time_machine.travel(datetime.datetime(2020, 1, 1, 12, tzinfo=paris)):
            print("tz", time.tzname[0])  # time-machine sets TZ for a ZoneInfo destination

        @time_machine.travel(datetime.datetime(2001, 2, 3, tzinfo=datetime.timezone.utc))
        class T(unittest.TestCase):
            def test_year(self):
                self.assertEqual(datetime.date.today().year, 2001)

        try:
            time_machine.travel(0)(int)
        except TypeError as exc:
            print("refused:", exc)
        result = unittest.TextTestRunner(stream=sys.stderr).run(
            unittest.defaultTestLoader.loadTestsFromTestCase(T)
        )
        print("ok" if result.wasSuccessful() and result.testsRun == 1 else "failed")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "tz CET",
        "refused: Can only decorate unittest.TestCase subclasses.",
        "ok",
    ], done.stderr
