"""freezegun's own datetime tests, ported to automock's clock.

Source: https://github.com/spulec/freezegun, tests/test_datetimes.py at commit
c9bf52c5aa12ea1b5b8647a136a92504ea071f2f. Copyright Steve Pulec and the freezegun
contributors, licensed under the Apache License, Version 2.0
(https://www.apache.org/licenses/LICENSE-2.0). Changes: ``freeze_time(...)`` is
``frozen_clock(...)``; ``freeze_time(x, tz_offset=h)`` is an instant with that UTC
offset (automock takes the local zone from the instant); ``frozen()`` is
``clock.now()`` (aware, UTC); tests of freezegun-only features (``ignore=``,
``as_kwarg=``, callables and generators as the instant, ``FakeDatetime``, locales,
maya) are left out. Where automock deliberately differs (docs/runtime.md, "Coming
from freezegun"), the test says so and asserts automock's behaviour.
"""

from __future__ import annotations

import calendar
import datetime
import fractions
import time
from collections.abc import Callable

import pytest

from automock.runtime.clock import frozen_clock


def _naive(moment: datetime.datetime) -> datetime.datetime:
    """freezegun's ``frozen()`` is naive UTC; automock's ``clock.now()`` is aware."""
    return moment.astimezone(datetime.UTC).replace(tzinfo=None)


def test_simple_api() -> None:
    # time to freeze is always provided in UTC
    freezer = frozen_clock("2012-01-14")
    expected_timestamp = calendar.timegm((2012, 1, 14, 0, 0, 0))
    with freezer:
        assert time.time() == expected_timestamp
        assert time.monotonic() >= 0.0
        assert time.perf_counter() >= 0.0
        assert datetime.datetime.now() == datetime.datetime(2012, 1, 14)
        assert datetime.datetime.utcnow() == datetime.datetime(2012, 1, 14)
        assert datetime.date.today() == datetime.date(2012, 1, 14)
        assert datetime.datetime.now().today() == datetime.datetime(2012, 1, 14)
    assert time.time() != expected_timestamp
    assert time.monotonic() >= 0.0
    assert time.perf_counter() >= 0.0
    assert datetime.datetime.now() != datetime.datetime(2012, 1, 14)
    assert datetime.datetime.utcnow() != datetime.datetime(2012, 1, 14)
    with frozen_clock("2012-01-10 13:52:01"):
        assert datetime.datetime.now() == datetime.datetime(2012, 1, 10, 13, 52, 1)


def test_tz_offset() -> None:
    # freeze_time("2012-01-14 03:21:34", tz_offset=-4): the same instant, 4 h west of UTC
    with frozen_clock("2012-01-13T23:21:34-04:00"):
        assert datetime.datetime.now() == datetime.datetime(2012, 1, 13, 23, 21, 34)
        assert datetime.datetime.utcnow() == datetime.datetime(2012, 1, 14, 3, 21, 34)
        assert time.time() == calendar.timegm((2012, 1, 14, 3, 21, 34))


def test_timestamp_tz_offset() -> None:
    with frozen_clock(
        datetime.datetime.fromtimestamp(1, datetime.timezone(-datetime.timedelta(hours=1)))
    ):
        t = datetime.datetime.now().timestamp()
        assert datetime.datetime.fromtimestamp(t).timestamp() == t


def test_timedelta_tz_offset() -> None:
    with frozen_clock("2012-01-13T23:51:34-03:30"):
        assert datetime.datetime.now() == datetime.datetime(2012, 1, 13, 23, 51, 34)
        assert datetime.datetime.utcnow() == datetime.datetime(2012, 1, 14, 3, 21, 34)


def test_tz_offset_with_today() -> None:
    with frozen_clock("2012-01-13T20:00:00-04:00"):
        assert datetime.date.today() == datetime.date(2012, 1, 13)
    assert datetime.date.today() != datetime.date(2012, 1, 13)


def test_zero_tz_offset_with_time() -> None:
    # we expect the system to behave like a system with UTC timezone at the beginning of the Epoch
    with frozen_clock("1970-01-01"):
        assert datetime.date.today() == datetime.date(1970, 1, 1)
        assert datetime.datetime.now() == datetime.datetime(1970, 1, 1)
        assert datetime.datetime.utcnow() == datetime.datetime(1970, 1, 1)
        assert time.time() == 0.0
        assert time.monotonic() >= 0.0
        assert time.perf_counter() >= 0.0


def test_tz_offset_with_time() -> None:
    # a system with UTC-4 timezone at the beginning of the Epoch (wall clock 4 hrs late)
    with frozen_clock("1969-12-31T20:00:00-04:00"):
        assert datetime.date.today() == datetime.date(1969, 12, 31)
        assert datetime.datetime.now() == datetime.datetime(1969, 12, 31, 20)
        assert datetime.datetime.utcnow() == datetime.datetime(1970, 1, 1)
        assert time.time() == 0.0
        assert time.localtime().tm_hour == 20  # automock: localtime follows the instant's zone


def test_time_with_microseconds() -> None:
    with frozen_clock(datetime.datetime(1970, 1, 1, 0, 0, 1, 123456)):
        assert time.time() == 1.123456


def test_time_with_dst() -> None:
    with frozen_clock(datetime.datetime(1970, 6, 1, 0, 0, 1, 123456)):
        assert time.time() == 13046401.123456


def test_manual_increment() -> None:
    initial_datetime = datetime.datetime(year=1, month=7, day=12, hour=15, minute=6, second=3)
    with frozen_clock(initial_datetime) as frozen_datetime:
        assert _naive(frozen_datetime.now()) == initial_datetime

        expected = initial_datetime + datetime.timedelta(seconds=1)
        assert _naive(frozen_datetime.tick()) == expected
        assert _naive(frozen_datetime.now()) == expected

        expected = initial_datetime + datetime.timedelta(seconds=11)
        assert _naive(frozen_datetime.tick(10)) == expected
        assert _naive(frozen_datetime.now()) == expected

        expected = initial_datetime + datetime.timedelta(seconds=21)
        assert _naive(frozen_datetime.tick(delta=datetime.timedelta(seconds=10))) == expected
        assert _naive(frozen_datetime.now()) == expected

        expected = initial_datetime + datetime.timedelta(seconds=22.5)
        assert _naive(frozen_datetime.tick(delta=fractions.Fraction(3, 2))) == expected  # type: ignore[arg-type]
        assert datetime.datetime.now() == expected


def test_move_to() -> None:
    initial_datetime = datetime.datetime(year=1, month=7, day=12, hour=15, minute=6, second=3)
    other_datetime = datetime.datetime(year=2, month=8, day=13, hour=14, minute=5, second=0)
    with frozen_clock(initial_datetime) as frozen_datetime:
        assert _naive(frozen_datetime.now()) == initial_datetime

        frozen_datetime.move_to(other_datetime)
        assert _naive(frozen_datetime.now()) == other_datetime

        frozen_datetime.move_to(initial_datetime)
        assert _naive(frozen_datetime.now()) == initial_datetime


def test_bad_time_argument() -> None:
    with pytest.raises(ValueError, match="2012-13-14"):
        frozen_clock("2012-13-14")


@pytest.mark.parametrize(
    ("func_name", "tick_size"),
    [
        ("monotonic", 1.0),
        ("monotonic_ns", int(1e9)),
        ("perf_counter", 1.0),
        ("perf_counter_ns", int(1e9)),
    ],
)
def test_time_monotonic(func_name: str, tick_size: float) -> None:
    """automock differs: each read also advances the monotonic clock by ``tick`` (1 ms by
    default, so polling loops end); with ``tick=0`` the numbers are freezegun's."""
    initial_datetime = datetime.datetime(year=1, month=7, day=12, hour=15, minute=6, second=3)
    with frozen_clock(initial_datetime, tick=0) as frozen_datetime:
        func: Callable[[], float] = getattr(time, func_name)
        t0 = func()
        frozen_datetime.tick()
        t1 = func()
        assert t1 == t0 + tick_size
        frozen_datetime.tick(10)
        t11 = func()
        assert t11 == t1 + 10 * tick_size


def test_time_monotonic_ticks_on_every_read_by_default() -> None:
    """The deliberate difference: freezegun's ``t1 == t0 + 1`` is ``t0 + 1 + tick`` here."""
    with frozen_clock("2012-01-14") as clock:
        t0 = time.monotonic_ns()
        clock.tick()
        assert time.monotonic_ns() == t0 + 10**9 + 10**6


def test_time_gmtime() -> None:
    with frozen_clock("2012-01-14 03:21:34"):
        time_struct = time.gmtime()
        assert time_struct.tm_year == 2012
        assert time_struct.tm_mon == 1
        assert time_struct.tm_mday == 14
        assert time_struct.tm_hour == 3
        assert time_struct.tm_min == 21
        assert time_struct.tm_sec == 34
        assert time_struct.tm_wday == 5
        assert time_struct.tm_yday == 14
        # automock differs: a real struct_time (freezegun's says -1, "unknown")
        assert time_struct.tm_isdst == 0


def test_time_localtime() -> None:
    # freezegun sets time.timezone = -3600 by hand; automock takes UTC+1 from the instant
    with frozen_clock("2012-01-14T04:21:34+01:00"):
        time_struct = time.localtime()
        assert time_struct.tm_year == 2012
        assert time_struct.tm_mon == 1
        assert time_struct.tm_mday == 14
        assert time_struct.tm_hour == 4  # offset of 1 hour due to time zone
        assert time_struct.tm_min == 21
        assert time_struct.tm_sec == 34
        assert time_struct.tm_wday == 5
        assert time_struct.tm_yday == 14
        assert time_struct.tm_isdst == 0
        assert time.timezone == -3600
        assert time.strftime("%z") == "+0100"
    assert time.localtime().tm_year != 2012


def test_strftime() -> None:
    with frozen_clock("1970-01-01"):
        assert time.strftime("%Y") == "1970"


def test_real_strftime_fall_through() -> None:
    # automock differs: frozen_clock() with no instant freezes at 2024-01-01T00:00:00Z, not "now"
    with frozen_clock():
        assert time.strftime("%Y") == "2024"
        assert time.strftime("%Y", (2001, 1, 1, 1, 1, 1, 1, 1, 1)) == "2001"


def test_date_object() -> None:
    frozen_date = datetime.date(year=2012, month=11, day=10)
    assert frozen_clock(frozen_date).at == frozen_clock("2012-11-10").at


def test_old_date_object() -> None:
    frozen_date = datetime.date(year=1, month=1, day=1)
    with frozen_clock(frozen_date):
        assert datetime.date.today() == frozen_date


def test_invalid_type() -> None:
    # automock differs: an int is epoch seconds (time-machine's reading), not a TypeError
    assert frozen_clock(4).at == datetime.datetime(1970, 1, 1, 0, 0, 4, tzinfo=datetime.UTC)
    with pytest.raises(ValueError, match="expected a datetime, date, epoch seconds or string"):
        frozen_clock([4])  # type: ignore[arg-type]


def test_datetime_object() -> None:
    frozen_datetime = datetime.datetime(year=2012, month=11, day=10, hour=4, minute=15, second=30)
    assert frozen_clock(frozen_datetime).at == frozen_clock("2012-11-10 04:15:30").at


def test_old_datetime_object() -> None:
    frozen_datetime = datetime.datetime(year=1, month=7, day=12, hour=15, minute=6, second=3)
    with frozen_clock(frozen_datetime):
        assert datetime.datetime.now() == frozen_datetime


@frozen_clock("2012-01-14")
def test_decorator() -> None:
    assert datetime.datetime.now() == datetime.datetime(2012, 1, 14)


def test_decorator_wrapped_attribute() -> None:
    def to_decorate() -> None:
        pass

    wrapped = frozen_clock("2014-01-14")(to_decorate)
    assert wrapped.__wrapped__ is to_decorate  # type: ignore[attr-defined]


@frozen_clock("Jan 14th, 2012")
def test_nice_datetime() -> None:
    assert datetime.datetime.now() == datetime.datetime(2012, 1, 14)


@frozen_clock("2012-01-14")
def test_datetime_date_method() -> None:
    now = datetime.datetime.now()
    assert now.date() == datetime.date(2012, 1, 14)


def test_context_manager() -> None:
    with frozen_clock("2012-01-14"):
        assert datetime.datetime.now() == datetime.datetime(2012, 1, 14)
    assert datetime.datetime.now() != datetime.datetime(2012, 1, 14)


def _assert_datetime_date_and_time_are_all_equal(expected_datetime: datetime.datetime) -> None:
    assert datetime.datetime.now() == expected_datetime
    assert datetime.date.today() == expected_datetime.date()
    assert datetime.datetime.fromtimestamp(time.time()) == expected_datetime


def test_nested_context_manager() -> None:
    with frozen_clock("2012-01-14"):
        with frozen_clock("2012-12-25"):
            _assert_datetime_date_and_time_are_all_equal(datetime.datetime(2012, 12, 25))
        _assert_datetime_date_and_time_are_all_equal(datetime.datetime(2012, 1, 14))
    assert datetime.datetime.now() > datetime.datetime(2013, 1, 1)


def test_nested_context_manager_with_tz_offsets() -> None:
    # tz_offset=2 and tz_offset=6: the same instants with those offsets
    with frozen_clock("2012-01-15T01:00:00+02:00"):
        with frozen_clock("2012-12-26T01:00:00+06:00"):
            assert datetime.datetime.now() == datetime.datetime(2012, 12, 26, 1)
            assert datetime.date.today() == datetime.date(2012, 12, 26)
        assert datetime.datetime.now() == datetime.datetime(2012, 1, 15, 1)
        assert datetime.date.today() == datetime.date(2012, 1, 15)
    assert datetime.datetime.now() > datetime.datetime(2013, 1, 1)


@frozen_clock("Jan 14th, 2012")
def test_isinstance_with_active() -> None:
    # automock differs: time-machine patches the C functions, so the values are real datetimes
    now = datetime.datetime.now()
    assert type(now) is datetime.datetime
    assert type(now.date()) is datetime.date
    assert type(datetime.date.today()) is datetime.date


def test_min_and_max() -> None:
    # automock differs: no FakeDatetime class; min and max stay the real ones
    with frozen_clock("2012-01-14"):
        assert datetime.datetime.min.__class__ == datetime.datetime
        assert datetime.date.max.__class__ == datetime.date


@frozen_clock("2014-07-30T01:00:00Z")
def test_freeze_with_timezone_aware_datetime_in_utc() -> None:
    """utcnow() should always return a timezone naive datetime."""
    utc_now = datetime.datetime.utcnow()
    assert utc_now.tzinfo is None


@frozen_clock("1970-01-01T00:00:00-04:00")
def test_freeze_with_timezone_aware_datetime_in_non_utc() -> None:
    """A system with UTC-4 timezone at the beginning of the Epoch (wall clock 4 hrs late)."""
    utc_now = datetime.datetime.utcnow()
    assert utc_now.tzinfo is None
    assert utc_now == datetime.datetime(1970, 1, 1, 4)
    assert datetime.datetime.now() == datetime.datetime(1970, 1, 1)


@frozen_clock("2015-01-01")
def test_time_with_nested() -> None:
    from time import time as read_time

    assert read_time() == 1420070400.0
    with frozen_clock("2015-01-01T00:06:00"):
        assert read_time() == 1420070760.0


@pytest.mark.parametrize("func_name", ["monotonic", "perf_counter"])
def test_monotonic_with_nested(func_name: str) -> None:
    # with tick=0 (see test_time_monotonic); each block has its own virtual monotonic clock
    def invoke_time_func() -> float:
        return float(getattr(time, func_name)())

    with frozen_clock("2015-01-01", tick=0) as frozen_datetime_1:
        initial_t1 = invoke_time_func()
        with frozen_clock("2015-12-25", tick=0) as frozen_datetime_2:
            initial_t2 = invoke_time_func()
            frozen_datetime_2.tick()
            assert invoke_time_func() == initial_t2 + 1
        assert invoke_time_func() == initial_t1
        frozen_datetime_1.tick()
        assert invoke_time_func() == initial_t1 + 1


def test_should_use_real_time() -> None:
    expected_frozen = 1425513600.0
    expected_frozen_gmt = (2015, 3, 5, 0, 0, 0, 3, 64)  # tm_isdst left out: 0 here, -1 there
    timestamp_to_convert = 1579602312
    time_tuple = time.gmtime(timestamp_to_convert)
    with frozen_clock(datetime.datetime(2015, 3, 5)):
        assert time.time() == expected_frozen
        assert tuple(time.gmtime())[:8] == expected_frozen_gmt
        assert time.time_ns() == expected_frozen * 1e9
        assert calendar.timegm(time.gmtime()) == expected_frozen
        assert calendar.timegm(time_tuple) == timestamp_to_convert


def test_time_ns() -> None:
    expected_timestamp = calendar.timegm((2012, 1, 14, 0, 0, 0))
    with frozen_clock("2012-01-14"):
        assert time.time() == expected_timestamp
        assert time.time_ns() == expected_timestamp * 1e9
    assert time.time() != expected_timestamp
    assert time.time_ns() != expected_timestamp * 1e9


def test_time_ns_with_microseconds() -> None:
    # automock differs: the exact nanoseconds (freezegun goes through a float: ...450112)
    with frozen_clock("2024-03-20 18:21:10.12345"):
        assert time.time_ns() == 1710958870123450000
    assert time.time_ns() != 1710958870123450000


def test_compare_datetime_and_time_with_timezone(monkeypatch: pytest.MonkeyPatch) -> None:
    """now() and time.time() stay consistent when the program changes its own time zone."""
    with frozen_clock("1970-01-01 00:00:00"), monkeypatch.context() as m:
        m.setenv("TZ", "Europe/Berlin")
        time.tzset()
        now = datetime.datetime.now()
        assert now == datetime.datetime.fromtimestamp(time.time())
        assert now.timestamp() == time.time()
        # automock differs: now() is Berlin's wall clock, one hour past utcnow()
        assert now == datetime.datetime.utcnow() + datetime.timedelta(hours=1)
    time.tzset()


def test_timestamp_with_tzoffset() -> None:
    with frozen_clock("2000-01-01T06:00:00+06:00"):
        utcnow = datetime.datetime(2000, 1, 1, 0)
        nowtz = datetime.datetime(2000, 1, 1, 0, tzinfo=datetime.UTC)
        now = datetime.datetime(2000, 1, 1, 6)
        assert now == datetime.datetime.now()
        assert now == datetime.datetime.fromtimestamp(time.time())
        assert now.timestamp() == time.time()
        assert nowtz.timestamp() == time.time()
        assert utcnow == datetime.datetime.utcfromtimestamp(time.time())
        assert utcnow == datetime.datetime.utcnow()


def test_datetime_in_timezone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skipped in freezegun ("timezone handling is currently incorrect"); holds here: the
    instant is UTC unless it says otherwise, and now() is the machine zone's wall clock."""
    with frozen_clock("1970-01-01 00:00:00"), monkeypatch.context() as m:
        m.setenv("TZ", "Europe/Berlin")
        time.tzset()
        assert datetime.datetime.now() == datetime.datetime(1970, 1, 1, 1, 0, 0)
    time.tzset()


UNITTEST_CLASSES = """
import datetime
import unittest

import pytest


@pytest.mark.automock(at="2013-04-09")
class TestUnitTestClassDecorator(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        assert datetime.date(2013, 4, 9) == datetime.date.today()

    def setUp(self):
        self.assertEqual(datetime.date(2013, 4, 9), datetime.date.today())

    def tearDown(self):
        self.assertEqual(datetime.date(2013, 4, 9), datetime.date.today())

    @classmethod
    def tearDownClass(cls):
        assert datetime.date(2013, 4, 9) == datetime.date.today()

    def test_class_decorator_works_on_unittest(self):
        self.assertEqual(datetime.date(2013, 4, 9), datetime.date.today())

    def test_class_name_preserved_by_decorator(self):
        self.assertEqual(self.__class__.__name__, "TestUnitTestClassDecorator")


@pytest.mark.automock(at="2013-04-09")
class TestUnitTestClassDecoratorWithNoSetUpOrTearDown(unittest.TestCase):
    def test_class_decorator_works_on_unittest(self):
        self.assertEqual(datetime.date(2013, 4, 9), datetime.date.today())


class TestUnitTestClassDecoratorSubclass(TestUnitTestClassDecorator):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()

    def test_class_name_preserved_by_decorator(self):
        self.assertEqual(self.__class__.__name__, "TestUnitTestClassDecoratorSubclass")


class BaseInheritanceFreezableTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        pass

    @classmethod
    def tearDownClass(cls):
        pass


class UnfrozenInheritedTests(BaseInheritanceFreezableTests):
    def test_time_is_not_frozen(self):
        self.assertNotEqual(datetime.date(2013, 4, 9), datetime.date.today())


@pytest.mark.automock(at="2013-04-09")
class FrozenInheritedTests(BaseInheritanceFreezableTests):
    def test_time_is_frozen(self):
        self.assertEqual(datetime.date(2013, 4, 9), datetime.date.today())
"""


def test_marker_freezes_unittest_class_setup_like_the_class_decorator(
    pytester: pytest.Pytester,
) -> None:
    """freezegun's ``@freeze_time`` on a ``unittest.TestCase`` is the marker on the class:
    ``setUpClass``/``tearDownClass`` run frozen too (a subclass inherits the marker)."""
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_classes=UNITTEST_CLASSES)
    result = pytester.runpytest_inprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=7)
