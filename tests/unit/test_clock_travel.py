"""The frozen clock as time-machine's users drive it (issue 26): relative travel, going
back, exact nanoseconds, start/stop, ``async with``, ``move_to(tick=)``, the escape hatch,
and decorating a plain test class. Everything through ``automock.frozen_clock``."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from datetime import UTC, timedelta

import pytest

import automock

pytest_plugins = ["pytester"]


def test_a_timedelta_destination_travels_relative_to_the_clock_it_is_entered_in() -> None:
    with automock.frozen_clock("2030-06-15T12:00:00Z"):
        with automock.frozen_clock(timedelta(days=1, hours=-2)):
            assert dt.datetime.now(UTC) == dt.datetime(2030, 6, 16, 10, tzinfo=UTC)
        assert dt.datetime.now(UTC) == dt.datetime(2030, 6, 15, 12, tzinfo=UTC)


def test_a_timedelta_destination_outside_any_clock_starts_from_the_real_time() -> None:
    with automock.frozen_clock(timedelta(days=-3650)):
        travelled = dt.datetime.now(UTC)
    assert abs((dt.datetime.now(UTC) - travelled) - timedelta(days=3650)) < timedelta(hours=1)


def test_advancing_by_a_negative_amount_moves_the_wall_clock_back_only() -> None:
    with automock.frozen_clock("2030-01-01T00:00:10Z") as clock:
        before = time.monotonic()
        clock.advance(-10)
        assert dt.datetime.now(UTC) == dt.datetime(2030, 1, 1, tzinfo=UTC)
        clock.advance(timedelta(seconds=-5))
        assert time.time() == dt.datetime(2029, 12, 31, 23, 59, 55, tzinfo=UTC).timestamp()
        assert time.monotonic() >= before  # the monotonic clock never goes back


@pytest.mark.parametrize("amount", ["1.1", b"1", True])
def test_advancing_by_a_string_or_a_bool_is_a_type_error(amount: object) -> None:
    with automock.frozen_clock("2030-01-01") as clock:
        with pytest.raises(TypeError, match="seconds or a timedelta"):
            clock.advance(amount)  # type: ignore[arg-type]
        assert dt.datetime.now(UTC) == dt.datetime(2030, 1, 1, tzinfo=UTC)


def test_long_advances_land_on_the_exact_nanosecond() -> None:
    with automock.frozen_clock("2000-01-01T00:00:00Z") as clock:
        start_ns = time.time_ns()
        clock.advance(timedelta(days=150_000, microseconds=7))
        assert time.time_ns() - start_ns == (150_000 * 86_400 * 1_000_000 + 7) * 1_000
        expected = dt.datetime(2000, 1, 1, tzinfo=UTC) + timedelta(days=150_000, microseconds=7)
        assert dt.datetime.now(UTC) == expected
        assert clock.now() == expected
        clock.advance(123_456_789_012)  # whole seconds as an int
        assert time.time_ns() - start_ns == (150_000 * 86_400 + 123_456_789_012) * 10**9 + 7_000


def test_start_and_stop_without_a_with_block() -> None:
    freezer = automock.frozen_clock("2031-02-03")
    clock = freezer.start()
    try:
        assert dt.date.today() == dt.date(2031, 2, 3)
        clock.advance(timedelta(days=1))
        assert dt.date.today() == dt.date(2031, 2, 4)
    finally:
        freezer.stop()
    assert dt.date.today() != dt.date(2031, 2, 4)
    with pytest.raises(RuntimeError, match="without start"):
        freezer.stop()


def test_async_with() -> None:
    async def body() -> dt.date:
        async with automock.frozen_clock("2032-03-04") as clock:
            clock.advance(timedelta(days=2))
            return dt.date.today()

    assert asyncio.run(body()) == dt.date(2032, 3, 6)


def test_move_to_sets_a_new_monotonic_step_and_refuses_real_time_ticking() -> None:
    with automock.frozen_clock("2030-01-01", tick=0) as clock:
        assert clock.move_to(timedelta(hours=5), tick=0.25) == dt.datetime(
            2030, 1, 1, 5, tzinfo=UTC
        )
        first = time.monotonic()
        assert time.monotonic() - first == 0.25
        with pytest.raises(TypeError, match="real time"):
            clock.move_to("2030-01-02", tick=True)


def test_the_escape_hatch_reads_the_real_time_while_frozen() -> None:
    hatch = automock.frozen_clock.escape_hatch
    assert not hatch.is_frozen()
    with automock.frozen_clock("1999-12-31T23:59:59Z"):
        assert hatch.is_frozen()
        assert time.time() == dt.datetime(1999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp()
        assert hatch.datetime_now(UTC).year >= 2024
        assert hatch.time() > dt.datetime(2024, 1, 1, tzinfo=UTC).timestamp()
        start = hatch.monotonic()
        hatch.sleep(0.01)  # a real sleep
        assert hatch.monotonic() > start


def test_decorating_a_plain_class_freezes_each_of_its_tests(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_decorated="""
        import asyncio
        import datetime

        import automock


        @automock.frozen_clock("2012-01-14")
        class TestFrozen:
            def test_sync(self):
                assert datetime.date.today() == datetime.date(2012, 1, 14)

            def test_async(self):
                async def read():
                    return datetime.date.today()
                assert asyncio.run(read()) == datetime.date(2012, 1, 14)

            def helper(self):
                return datetime.date.today()

            def test_helper_called_from_a_test(self):
                assert self.helper() == datetime.date(2012, 1, 14)
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3)


def test_decorating_a_class_with_no_tests_is_refused() -> None:
    class Plain:
        def run(self) -> None:
            pass

    with pytest.raises(TypeError, match="Plain has none"):
        automock.frozen_clock("2012-01-14")(Plain)
