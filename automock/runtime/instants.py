"""What a clock's ``at=`` means: an instant and the local time zone it names.

:func:`parse_instant` accepts what freezegun and time-machine users pass:

* a ``datetime`` (aware; naive means UTC), a ``date`` (its midnight, UTC);
* epoch seconds (``int``/``float``, UTC);
* an ISO 8601 string (``"2024-01-01T00:00:00Z"``, ``"2024-01-01 09:00+01:00"``);
* any other string python-dateutil's parser reads (``"Jan 14th, 2012"``),
  imported only for such strings.

The result is an :class:`Instant`: the aware instant, plus the ``TZ`` value of
the zone it names (``None`` when it names none: a naive value, a date or an
epoch number). :func:`use_zone` makes that zone the program's local time
zone (``TZ`` + ``time.tzset()``, undone on exit), so ``time.localtime()``,
naive ``datetime.now()``, ``time.timezone``/``tzname`` and ``strftime("%z")``
no longer depend on the machine. A ``ZoneInfo`` zone keeps its name (and its
daylight-saving rules) when the system has its tz data; any other zone is the
fixed offset it has at the instant (POSIX ``<+01>-1``).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import TypeAlias

from automock.errors import InputError
from automock.runtime._base import Undo

__all__ = ["UTC_ZONE", "Instant", "InstantLike", "parse_instant", "use_zone"]

InstantLike: TypeAlias = "str | datetime | date | int | float"

UTC_ZONE = "UTC"  # TZ for the UTC instants and for those that name no zone
_TZDIRS = (os.environ.get("TZDIR", ""), "/usr/share/zoneinfo", "/usr/lib/zoneinfo")


@dataclass(frozen=True, slots=True)
class Instant:
    """An aware instant and the ``TZ`` value of the zone it was given in (None: none named)."""

    at: datetime
    zone: str | None

    def iso(self) -> str:
        """The ISO 8601 form plans store: the instant with its UTC offset."""
        return (self.at if self.zone else self.at.astimezone(UTC)).isoformat()


def parse_instant(value: InstantLike, where: str = "at") -> Instant:
    """Read ``value`` as an instant; raise :class:`InputError` naming ``where`` if it is not one."""
    if isinstance(value, bool):
        raise InputError(
            f"{where}: expected a datetime, date, epoch seconds or string, got {value!r}"
        )
    if isinstance(value, datetime):
        return _aware(value)
    if isinstance(value, date):
        return Instant(datetime(value.year, value.month, value.day, tzinfo=UTC), None)
    if isinstance(value, int | float):
        try:
            return Instant(datetime.fromtimestamp(value, tz=UTC), None)
        except (OverflowError, OSError, ValueError):
            raise InputError(f"{where}: {value!r} epoch seconds are out of range") from None
    if isinstance(value, str):
        return _aware(_parse_text(value.strip(), where))
    raise InputError(
        f"{where}: expected a datetime, date, epoch seconds or string, got {type(value).__name__}"
    )


def _parse_text(text: str, where: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    try:
        from dateutil import parser
    except ImportError:  # pragma: no cover - a core dependency
        raise InputError(
            f"{where}: {text!r} is not ISO 8601 and python-dateutil (which reads other "
            "forms) is not installed; pip install python-dateutil, or pass ISO 8601"
        ) from None
    try:
        parsed: datetime = parser.parse(text)
    except (ValueError, OverflowError):
        raise InputError(
            f"{where}: cannot read {text!r} as an instant; "
            'use ISO 8601 like "2024-01-01T00:00:00Z" or a date like "Jan 14th, 2012"'
        ) from None
    return parsed


def _aware(value: datetime) -> Instant:
    if value.tzinfo is None or value.utcoffset() is None:
        return Instant(value.replace(tzinfo=UTC), None)
    return Instant(value, _tz_value(value.tzinfo, value))


def _tz_value(zone: tzinfo, at: datetime) -> str:
    """The ``TZ`` value for ``zone``: its IANA name if the C library can load it, else an offset."""
    key = getattr(zone, "key", None)
    if isinstance(key, str) and any(d and os.path.isfile(os.path.join(d, key)) for d in _TZDIRS):
        return key
    offset = at.utcoffset() or timedelta(0)
    if not offset:
        return UTC_ZONE
    seconds = int(offset.total_seconds())
    sign = "+" if seconds > 0 else "-"
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    name = f"{sign}{hours:02d}{minutes:02d}" if minutes else f"{sign}{hours:02d}"
    # POSIX counts offsets west of Greenwich as positive: UTC+01 is "<+01>-1"
    posix = f"{'-' if seconds > 0 else ''}{hours}" + (f":{minutes:02d}" if minutes or secs else "")
    return f"<{name}>{posix}" + (f":{secs:02d}" if secs else "")


def use_zone(undo: Undo, zone: str) -> None:
    """Make ``zone`` (a ``TZ`` value) the local time zone; ``undo`` restores the previous one."""
    if not hasattr(time, "tzset"):  # pragma: no cover - Windows
        return
    previous = os.environ.get("TZ")
    if previous == zone:
        return

    def restore() -> None:
        if previous is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = previous
        time.tzset()

    os.environ["TZ"] = zone
    time.tzset()
    undo.push(restore)


def nanoseconds(value: object, where: str) -> int:
    """An amount of time as integer nanoseconds: a ``timedelta`` exactly, a number of seconds
    (int, float, Fraction, Decimal, numpy numbers) rounded to the nanosecond.

    Strings (``"1.1"``) and bools are refused with ``TypeError``, as time-machine does.
    """
    if isinstance(value, timedelta):
        return ((value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds) * 1_000
    if isinstance(value, bool | str | bytes | bytearray):
        raise TypeError(f"{where}: expected seconds or a timedelta, got {value!r}")
    if isinstance(value, int):
        return value * 1_000_000_000
    try:
        return round(value * 1_000_000_000)  # type: ignore[operator]
    except TypeError:
        raise TypeError(f"{where}: expected seconds or a timedelta, got {value!r}") from None
