"""The clock's instants and zones: ``at=`` forms, the local zone, ``move_to``, ``tick``."""

from __future__ import annotations

import datetime as dt
import os
import time
import zoneinfo

import pytest

from automock.errors import InputError
from automock.runtime.clock import frozen_clock

JAN_14 = dt.datetime(2012, 1, 14, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    "at",
    [
        "Jan 14th, 2012",
        "2012-01-14",
        "2012-01-14T00:00:00Z",
        "2012-01-14T01:00:00+01:00",
        dt.date(2012, 1, 14),
        dt.datetime(2012, 1, 14),
        dt.datetime(2012, 1, 13, 19, tzinfo=dt.timezone(-dt.timedelta(hours=5))),
        1326499200,
        1326499200.0,
    ],
)
def test_every_form_of_at_names_the_same_instant(at: object) -> None:
    with frozen_clock(at) as clock:  # type: ignore[arg-type]
        assert clock.at == JAN_14
        assert time.time() == JAN_14.timestamp()


@pytest.mark.parametrize(
    ("at", "message"),
    [
        ("not a date", "cannot read 'not a date' as an instant; use ISO 8601"),
        ("2012-13-14", "cannot read '2012-13-14'"),
        (True, "expected a datetime, date, epoch seconds or string, got True"),
        (None, "got NoneType"),
        (1e300, "out of range"),
    ],
)
def test_bad_instants_are_refused_in_one_line_naming_them(at: object, message: str) -> None:
    with pytest.raises(InputError, match="frozen_clock") as caught:
        frozen_clock(at)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_an_offset_makes_the_local_zone_that_offset_and_exit_restores_it() -> None:
    before = (os.environ.get("TZ"), time.timezone, time.tzname)
    with frozen_clock("2024-06-01T09:30:00+05:30"):
        assert dt.datetime.now() == dt.datetime(2024, 6, 1, 9, 30)
        assert dt.datetime.now().astimezone().utcoffset() == dt.timedelta(hours=5, minutes=30)
        assert time.localtime()[:5] == (2024, 6, 1, 9, 30)
        assert time.timezone == -19800
        assert time.tzname == ("+0530", "+0530")
        assert time.strftime("%H:%M %z") == "09:30 +0530"
    assert (os.environ.get("TZ"), time.timezone, time.tzname) == before


def test_a_utc_or_naive_instant_makes_the_local_zone_utc_whatever_the_machine_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        for at in ("2024-06-01T12:00:00Z", "2024-06-01 12:00", dt.datetime(2024, 6, 1, 12)):
            with frozen_clock(at):
                assert dt.datetime.now() == dt.datetime(2024, 6, 1, 12)
                assert time.localtime().tm_hour == 12
                assert time.strftime("%z") == "+0000"
            assert time.tzname == ("EST", "EDT")
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_zoneinfo_keeps_its_name_and_daylight_saving_rules() -> None:
    paris = zoneinfo.ZoneInfo("Europe/Paris")
    with frozen_clock(dt.datetime(2024, 1, 15, 12, tzinfo=paris)) as clock:
        assert time.tzname == ("CET", "CEST")
        assert dt.datetime.now() == dt.datetime(2024, 1, 15, 12)
        clock.advance(dt.timedelta(days=180))  # into summer time
        assert dt.datetime.now() == dt.datetime(2024, 7, 13, 13)
        assert time.strftime("%Z") == "CEST"


def test_move_to_jumps_the_wall_clock_either_way_and_leaves_the_monotonic_clock() -> None:
    with frozen_clock("2024-01-01T00:00:00Z", tick=0) as clock:
        mono = time.monotonic()
        assert clock.move_to("2020-02-29 12:00") == dt.datetime(2020, 2, 29, 12, tzinfo=dt.UTC)
        assert dt.datetime.now() == dt.datetime(2020, 2, 29, 12)
        assert time.monotonic() == mono
        clock.move_to(dt.date(2030, 1, 1))
        assert dt.date.today() == dt.date(2030, 1, 1)
        assert clock.slept == 0


def test_move_to_an_instant_with_a_zone_changes_the_local_zone_until_the_block_ends() -> None:
    before = time.tzname
    with frozen_clock("2024-01-01T00:00:00Z") as clock:
        clock.move_to("2024-01-01T08:00:00+08:00")
        assert time.tzname == ("+08", "+08")
        assert dt.datetime.now() == dt.datetime(2024, 1, 1, 8)
        clock.move_to("2024-01-02")  # names no zone: the local zone stays
        assert time.tzname == ("+08", "+08")
        assert dt.datetime.now() == dt.datetime(2024, 1, 2, 8)
    assert time.tzname == before


def test_advance_and_tick_take_seconds_or_a_timedelta() -> None:
    with frozen_clock("2024-01-01T00:00:00Z", tick=0) as clock:
        mono = time.monotonic()
        clock.advance(dt.timedelta(minutes=2))
        clock.advance(3)
        assert clock.tick(dt.timedelta(hours=1)) == dt.datetime(2024, 1, 1, 1, 2, 3, tzinfo=dt.UTC)
        assert clock.tick() == dt.datetime(2024, 1, 1, 1, 2, 4, tzinfo=dt.UTC)
        assert time.monotonic() - mono == 3724
        assert clock.slept == 3724
        with pytest.raises(TypeError, match="seconds or a timedelta"):
            clock.advance("soon")  # type: ignore[arg-type]


PLUGIN_TESTS = """
import datetime, time, unittest
import pytest

pytestmark = pytest.mark.automock(at="Jan 14th, 2012")

FROZEN_AT_IMPORT = None

def setUpModule():
    global FROZEN_AT_IMPORT
    FROZEN_AT_IMPORT = datetime.date.today()

def test_module_setup_ran_frozen():
    assert FROZEN_AT_IMPORT == datetime.date(2012, 1, 14)

@pytest.mark.automock(at=datetime.datetime(2012, 1, 14, 3, tzinfo=datetime.timezone(datetime.timedelta(hours=-4))))
def test_datetime_with_offset(automock):
    assert datetime.datetime.now() == datetime.datetime(2012, 1, 14, 3)
    assert time.strftime("%z") == "-0400"
    assert automock.plan.clock.at == "2012-01-14T03:00:00-04:00"

@pytest.mark.automock(at=0)
def test_epoch(automock):
    assert time.time() == 0
    assert automock.plan.clock.at == "1970-01-01T00:00:00+00:00"

@pytest.mark.automock(at="yesterday-ish")
def test_bad():
    pass
"""


def test_the_marker_takes_every_form_and_freezes_setup_module(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_forms=PLUGIN_TESTS)
    result = pytester.runpytest_inprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(
        ["*automock: @pytest.mark.automock at: cannot read 'yesterday-ish' as an instant*"]
    )


def test_the_setup_clock_fixtures_leave_doctest_files_alone(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.maketxtfile(doc=">>> 1 + 1\n2\n")
    pytester.makepyfile(mod='def f():\n    """\n    >>> 2\n    2\n    """\n')
    result = pytester.runpytest_inprocess(
        "-p", "no:randomly", "-p", "no:cacheprovider", "--doctest-glob=*.txt", "--doctest-modules"
    )
    result.assert_outcomes(passed=2)
