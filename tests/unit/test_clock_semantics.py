"""What a program sees through ``frozen_clock``: the clock semantics a frozen-time library owes.

Grouped by what is being read: wall-clock reads, zones named by the instant, precision,
moving the clock, the monotonic counters, ``struct_time`` reads, inputs accepted as an
instant, nesting, decorating, and the pytest marker on ``unittest`` classes. Where automock
chose differently from freezegun (docs/runtime.md, "Coming from freezegun") the test says
which way automock went.
"""

from __future__ import annotations

import calendar
import datetime as dt
import fractions
import time
from collections.abc import Callable, Iterator

import pytest

from automock.runtime.clock import frozen_clock

UTC = dt.UTC
MIDSUMMER = dt.datetime(2019, 6, 21, 0, 0, 0)
MIDSUMMER_EPOCH = calendar.timegm(MIDSUMMER.timetuple())
ANCIENT = dt.datetime(3, 3, 3, 9, 30, 45)


def _utc_naive(moment: dt.datetime) -> dt.datetime:
    return moment.astimezone(UTC).replace(tzinfo=None)


@pytest.fixture
def move_to_berlin(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], None]]:
    """Call it inside a frozen block: the program sets its own machine zone (TZ) there."""

    def move() -> None:
        monkeypatch.setenv("TZ", "Europe/Berlin")
        time.tzset()

    yield move
    monkeypatch.undo()
    time.tzset()


# -- wall-clock reads ----------------------------------------------------------------------


def test_every_wall_clock_read_agrees_inside_and_none_is_frozen_after() -> None:
    with frozen_clock("2019-06-21"):
        assert time.time() == MIDSUMMER_EPOCH
        assert time.time_ns() == MIDSUMMER_EPOCH * 10**9
        assert dt.datetime.now() == MIDSUMMER
        assert dt.datetime.utcnow() == MIDSUMMER
        assert dt.datetime.now().today() == MIDSUMMER
        assert dt.date.today() == MIDSUMMER.date()
        assert dt.datetime.now().date() == MIDSUMMER.date()
        assert time.monotonic() >= 0.0 and time.perf_counter() >= 0.0
    assert time.time() != MIDSUMMER_EPOCH
    assert time.time_ns() != MIDSUMMER_EPOCH * 10**9
    assert dt.datetime.now() != MIDSUMMER
    assert dt.datetime.utcnow() != MIDSUMMER
    assert time.monotonic() >= 0.0 and time.perf_counter() >= 0.0


def test_a_time_of_day_in_the_string_is_kept() -> None:
    with frozen_clock("2019-06-21 17:45:09"):
        assert dt.datetime.now() == dt.datetime(2019, 6, 21, 17, 45, 9)


def test_the_epoch_itself_reads_as_zero() -> None:
    with frozen_clock("1970-01-01"):
        assert time.time() == 0.0
        assert dt.datetime.now() == dt.datetime.utcnow() == dt.datetime(1970, 1, 1)
        assert dt.date.today() == dt.date(1970, 1, 1)
        assert time.strftime("%Y") == "1970"


def test_values_are_real_datetime_classes() -> None:
    """automock's choice: time-machine patches the C functions, so no fake subclass."""
    with frozen_clock("2019-06-21"):
        assert type(dt.datetime.now()) is dt.datetime
        assert type(dt.datetime.now().date()) is dt.date
        assert type(dt.date.today()) is dt.date
        assert type(dt.datetime.max) is dt.datetime and type(dt.date.min) is dt.date


def test_time_imported_by_name_is_frozen_and_follows_nesting() -> None:
    from time import time as clock_seconds

    with frozen_clock("2021-02-01"):
        assert clock_seconds() == 1612137600.0
        with frozen_clock("2021-02-01T00:10:00"):
            assert clock_seconds() == 1612138200.0


# -- zones named by the instant ------------------------------------------------------------


@pytest.mark.parametrize(
    ("instant", "local", "utc"),
    [
        (
            "2020-03-09T18:40:00-05:00",
            dt.datetime(2020, 3, 9, 18, 40),
            dt.datetime(2020, 3, 9, 23, 40),
        ),
        (
            "2020-03-09T20:10:00-03:30",
            dt.datetime(2020, 3, 9, 20, 10),
            dt.datetime(2020, 3, 9, 23, 40),
        ),
        (
            "2020-03-10T05:40:00+06:00",
            dt.datetime(2020, 3, 10, 5, 40),
            dt.datetime(2020, 3, 9, 23, 40),
        ),
    ],
)
def test_an_offset_in_the_instant_is_the_local_zone(
    instant: str, local: dt.datetime, utc: dt.datetime
) -> None:
    """freezegun's ``tz_offset=`` is, here, the offset written in the instant."""
    with frozen_clock(instant):
        assert dt.datetime.now() == local
        assert dt.date.today() == local.date()
        assert dt.datetime.utcnow() == utc
        assert dt.datetime.utcnow().tzinfo is None
        assert time.time() == calendar.timegm(utc.timetuple())
        assert dt.datetime.fromtimestamp(time.time()) == local
        assert local.timestamp() == time.time()
        assert utc.replace(tzinfo=UTC).timestamp() == time.time()
        assert dt.datetime.utcfromtimestamp(time.time()) == utc
    assert dt.date.today() != local.date()


def test_a_zone_west_of_utc_at_the_epoch() -> None:
    with frozen_clock("1969-12-31T21:00:00-03:00"):
        assert time.time() == 0.0
        assert dt.datetime.utcnow() == dt.datetime(1970, 1, 1)
        assert dt.datetime.now() == dt.datetime(1969, 12, 31, 21)
        assert dt.date.today() == dt.date(1969, 12, 31)
        assert time.localtime().tm_hour == 21  # automock: localtime follows the instant's zone


def test_a_utc_instant_gives_a_naive_utcnow() -> None:
    with frozen_clock("2016-08-02T11:00:00Z"):
        assert dt.datetime.utcnow().tzinfo is None
        assert dt.datetime.utcnow() == dt.datetime(2016, 8, 2, 11)


def test_a_timestamp_survives_a_round_trip_under_a_negative_offset() -> None:
    start = dt.datetime.fromtimestamp(7, dt.timezone(dt.timedelta(hours=-2)))
    with frozen_clock(start):
        seconds = dt.datetime.now().timestamp()
        assert dt.datetime.fromtimestamp(seconds).timestamp() == seconds


def test_the_program_changing_its_zone_keeps_now_and_time_consistent(
    move_to_berlin: Callable[[], None],
) -> None:
    with frozen_clock("1999-01-01 12:00:00"):
        move_to_berlin()
        now = dt.datetime.now()
        assert now == dt.datetime.fromtimestamp(time.time())
        assert now.timestamp() == time.time()
        # automock: a naive instant is UTC, and now() is the machine zone's wall clock
        assert now == dt.datetime(1999, 1, 1, 13, 0, 0)
        assert now == dt.datetime.utcnow() + dt.timedelta(hours=1)


# -- precision -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("instant", "seconds"),
    [
        (dt.datetime(1970, 1, 1, 0, 0, 2, 654321), 2.654321),
        (dt.datetime(1970, 8, 15, 0, 0, 2, 654321), 19526402.654321),
    ],
)
def test_microseconds_reach_time_time(instant: dt.datetime, seconds: float) -> None:
    with frozen_clock(instant):
        assert time.time() == seconds


def test_time_ns_is_exact_to_the_nanosecond() -> None:
    """automock's choice: exact nanoseconds, not a value that went through a float."""
    with frozen_clock("2022-11-05 08:09:10.98765"):
        assert time.time_ns() == 1667635750987650000
    assert time.time_ns() != 1667635750987650000


# -- moving the clock ----------------------------------------------------------------------


def test_tick_moves_the_clock_by_a_second_or_by_what_it_is_given() -> None:
    with frozen_clock(ANCIENT) as clock:
        assert _utc_naive(clock.now()) == ANCIENT
        steps = [
            ((), 1.0),
            ((7,), 8.0),
            ((dt.timedelta(seconds=4),), 12.0),
            ((fractions.Fraction(1, 4),), 12.25),
        ]
        for args, total in steps:
            expected = ANCIENT + dt.timedelta(seconds=total)
            assert _utc_naive(clock.tick(*args)) == expected  # type: ignore[arg-type]
            assert _utc_naive(clock.now()) == expected
        assert dt.datetime.now() == ANCIENT + dt.timedelta(seconds=12.25)


def test_move_to_goes_anywhere_and_back() -> None:
    later = dt.datetime(4, 11, 30, 23, 59, 1)
    with frozen_clock(ANCIENT) as clock:
        clock.move_to(later)
        assert _utc_naive(clock.now()) == later
        clock.move_to(ANCIENT)
        assert _utc_naive(clock.now()) == ANCIENT
        assert dt.datetime.now() == ANCIENT


# -- monotonic counters --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "one_second"),
    [
        ("monotonic", 1.0),
        ("monotonic_ns", 10**9),
        ("perf_counter", 1.0),
        ("perf_counter_ns", 10**9),
    ],
)
def test_with_tick_zero_counters_move_only_when_the_clock_does(
    name: str, one_second: float
) -> None:
    """automock's choice: every read advances the counters by ``tick`` (1 ms by default, so a
    polling loop ends); with ``tick=0`` they move only by ticks of the clock."""
    with frozen_clock(ANCIENT, tick=0) as clock:
        read = getattr(time, name)  # looked up inside: the block replaces the counters
        first = read()
        assert read() == first
        clock.tick()
        second = read()
        assert second == first + one_second
        clock.tick(3)
        assert read() == second + 3 * one_second


def test_by_default_each_counter_read_adds_a_millisecond() -> None:
    with frozen_clock("2019-06-21") as clock:
        before = time.perf_counter_ns()
        clock.tick(2)
        assert time.perf_counter_ns() == before + 2 * 10**9 + 10**6


@pytest.mark.parametrize("name", ["monotonic", "perf_counter"])
def test_each_nested_block_has_its_own_counter(name: str) -> None:
    def read() -> float:
        return float(getattr(time, name)())

    with frozen_clock("2018-05-05", tick=0) as outer:
        outer_start = read()
        with frozen_clock("2018-10-10", tick=0) as inner:
            inner_start = read()
            inner.tick(2)
            assert read() == inner_start + 2
        assert read() == outer_start
        outer.tick(2)
        assert read() == outer_start + 2


# -- struct_time and strftime --------------------------------------------------------------


def test_gmtime_is_a_real_struct_for_the_frozen_instant() -> None:
    with frozen_clock("2023-03-15 22:07:58"):
        fields = time.gmtime()
        assert tuple(fields)[:8] == (2023, 3, 15, 22, 7, 58, 2, 74)
        assert fields.tm_isdst == 0  # automock: a real struct_time (freezegun says -1)


def test_localtime_and_the_zone_constants_follow_the_instant() -> None:
    """freezegun sets ``time.timezone`` by hand; here the zone comes from the instant."""
    with frozen_clock("2023-03-15T23:07:58+01:00"):
        fields = time.localtime()
        assert tuple(fields)[:9] == (2023, 3, 15, 23, 7, 58, 2, 74, 0)
        assert time.timezone == -3600
        assert time.strftime("%z") == "+0100"
    assert time.localtime().tm_year != 2023 or time.localtime().tm_mon != 3


def test_timegm_of_the_frozen_gmtime_is_time_and_other_tuples_are_untouched() -> None:
    outside = time.gmtime(1234567890)
    with frozen_clock(dt.datetime(2017, 9, 1)):
        assert time.time() == 1504224000.0
        assert time.time_ns() == 1504224000 * 10**9
        assert tuple(time.gmtime())[:8] == (2017, 9, 1, 0, 0, 0, 4, 244)
        assert calendar.timegm(time.gmtime()) == 1504224000
        assert calendar.timegm(outside) == 1234567890


def test_strftime_with_no_instant_uses_the_default_and_an_explicit_tuple_is_kept() -> None:
    """automock's choice: ``frozen_clock()`` freezes at 2024-01-01T00:00:00Z, not at now."""
    with frozen_clock():
        assert time.strftime("%Y-%m") == "2024-01"
        assert time.strftime("%Y", (1999, 2, 3, 4, 5, 6, 0, 34, 0)) == "1999"


# -- what is accepted as an instant --------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "same_as"),
    [
        (dt.date(2011, 4, 30), "2011-04-30"),
        (dt.datetime(2011, 4, 30, 6, 5, 4), "2011-04-30 06:05:04"),
        ("April 30th, 2011", "2011-04-30"),
    ],
)
def test_dates_datetimes_and_prose_name_the_same_instant(given: object, same_as: str) -> None:
    assert frozen_clock(given).at == frozen_clock(same_as).at  # type: ignore[arg-type]


def test_year_one_dates_and_datetimes_freeze() -> None:
    with frozen_clock(dt.date(1, 2, 3)):
        assert dt.date.today() == dt.date(1, 2, 3)
    with frozen_clock(ANCIENT):
        assert dt.datetime.now() == ANCIENT


def test_an_int_is_epoch_seconds_and_other_types_are_refused() -> None:
    """automock's choice: an int is epoch seconds (as in time-machine), not a TypeError."""
    assert frozen_clock(90).at == dt.datetime(1970, 1, 1, 0, 1, 30, tzinfo=UTC)
    with pytest.raises(ValueError, match="expected a datetime, date, epoch seconds or string"):
        frozen_clock({"at": 90})  # type: ignore[arg-type]


def test_an_impossible_date_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match="2019-02-30"):
        frozen_clock("2019-02-30")


# -- nesting and decorating ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("outer", "inner", "outer_local", "inner_local"),
    [
        ("2016-02-29", "2016-07-04", dt.datetime(2016, 2, 29), dt.datetime(2016, 7, 4)),
        (
            "2016-02-29T03:00:00+03:00",
            "2016-07-04T22:00:00-07:00",
            dt.datetime(2016, 2, 29, 3),
            dt.datetime(2016, 7, 4, 22),
        ),
    ],
)
def test_an_inner_block_wins_and_the_outer_comes_back(
    outer: str, inner: str, outer_local: dt.datetime, inner_local: dt.datetime
) -> None:
    def seen() -> tuple[dt.datetime, dt.date, dt.datetime]:
        return dt.datetime.now(), dt.date.today(), dt.datetime.fromtimestamp(time.time())

    with frozen_clock(outer):
        with frozen_clock(inner):
            assert seen() == (inner_local, inner_local.date(), inner_local)
        assert seen() == (outer_local, outer_local.date(), outer_local)
    assert dt.datetime.now() > dt.datetime(2017, 1, 1)


@frozen_clock("2010-10-10")
def test_as_a_decorator() -> None:
    assert dt.datetime.now() == dt.datetime(2010, 10, 10)


def test_the_decorator_keeps_the_wrapped_function() -> None:
    def job() -> None:
        return None

    assert frozen_clock("2010-10-10")(job).__wrapped__ is job  # type: ignore[attr-defined]


# -- the pytest marker on unittest classes -------------------------------------------------

MARKED_CLASSES = """
import datetime
import unittest

import pytest

DAY = datetime.date(2008, 8, 8)


@pytest.mark.automock(at="2008-08-08")
class Marked(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        assert datetime.date.today() == DAY

    @classmethod
    def tearDownClass(cls):
        assert datetime.date.today() == DAY

    def setUp(self):
        assert datetime.date.today() == DAY

    def tearDown(self):
        assert datetime.date.today() == DAY

    def test_body(self):
        assert datetime.date.today() == DAY

    def test_name(self):
        assert type(self).__name__ == "Marked"


@pytest.mark.automock(at="2008-08-08")
class MarkedBare(unittest.TestCase):
    def test_body(self):
        assert datetime.date.today() == DAY


class MarkedChild(Marked):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()

    def test_name(self):
        assert type(self).__name__ == "MarkedChild"


class Plain(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        pass


class PlainChild(Plain):
    def test_not_frozen(self):
        assert datetime.date.today() != DAY


@pytest.mark.automock(at="2008-08-08")
class MarkedPlainChild(Plain):
    def test_frozen(self):
        assert datetime.date.today() == DAY
"""


def test_the_marker_on_a_unittest_class_freezes_its_class_fixtures_too(
    pytester: pytest.Pytester,
) -> None:
    """The marker on a ``TestCase`` is freezegun's class decorator: ``setUpClass`` and
    ``tearDownClass`` run frozen, a subclass inherits it, an unmarked class is not frozen."""
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_marked_classes=MARKED_CLASSES)
    result = pytester.runpytest_inprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=7)
