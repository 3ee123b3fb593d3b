"""Frozen wall clock plus a virtual monotonic clock.

``frozen_clock(at, tick=0.001)`` freezes the wall clock (``time.time``,
``time.time_ns``, ``datetime.now/utcnow/today``, ``date.today``,
``time.localtime/gmtime/strftime`` defaults) with time-machine, which patches
the C implementations, so ``from time import time`` done earlier is frozen
too; ``time.ctime``/``asctime`` with no argument, which it leaves on the real clock, are
replaced here. time-machine has no virtual monotonic clock, so this module replaces
``time.monotonic``, ``time.perf_counter`` (and ``_ns``) with a counter that
advances by ``tick`` seconds on every read and ``time.sleep`` with a
version that waits in virtual time; ``scheduler.py`` wakes sleeping threads
and event loops in virtual-time order (``threads.py``, ``event_loop.py``), so
a sleep returns without waiting in real time.

Wall clock and sleeps: the wall clock stays frozen between reads, but moves
forward by every slept amount (``time.sleep``, ``asyncio.sleep``, event-loop
timer jumps), so ``datetime.now()`` after ``time.sleep(2)`` is 2 s later and
elapsed-time arithmetic stays sane. Per-read ticks only move the monotonic
clock.

Instants and zones: ``at`` is anything :func:`~automock.runtime.instants.parse_instant`
reads (datetime, date, epoch seconds, ISO or free-form strings); the block's
local time zone is the zone the instant names (UTC when it names none), so
``time.localtime()`` and naive ``datetime.now()`` do not depend on the machine.
``at`` may also be a ``timedelta``: relative travel from the time it is entered at (the
enclosing frozen clock's, else the real one).
The test moves time with :meth:`VirtualClock.advance`/``tick`` (forward: both clocks;
back: the wall clock only, as the monotonic clock never goes back) and
:meth:`VirtualClock.move_to` (anywhere, wall clock only). Amounts are kept as integer
nanoseconds end to end, so ``advance(timedelta(days=150_000))`` lands exactly.
``frozen_clock.escape_hatch`` (:mod:`automock.runtime.real_time`) reads the real time
inside a block.

Access log: ``time.time`` and ``time.time_ns`` are recorded on their first
call through the module (a wrapper that records, then puts the frozen
builtin back); the ``datetime`` reads by :mod:`automock.runtime.clock_reads`.
"""

from __future__ import annotations

import sys
import threading
import time as _time
from datetime import UTC, datetime, timedelta, tzinfo
from functools import partial
from types import ModuleType
from typing import Any

from automock.plan.model import DEFAULT_INSTANT
from automock.runtime import event_loop, scheduler, threads
from automock.runtime._base import Patch, Undo
from automock.runtime.clock_reads import watch_datetime_reads
from automock.runtime.events import record, record_first_calls
from automock.runtime.instants import (
    UTC_ZONE,
    Instant,
    InstantLike,
    nanoseconds,
    parse_instant,
    use_zone,
)
from automock.runtime.real_time import escape_hatch

__all__ = ["DEFAULT_INSTANT", "VirtualClock", "current_clock", "frozen_clock"]

# captured at import so our replacements never call themselves
_REAL_SLEEP = _time.sleep
# the builtins (frozen in C by time-machine): our own reads go unrecorded
_WALL_TIME = _time.time
_WALL_TIME_NS = _time.time_ns
_TIME_APIS = (("time", "time.time"), ("time_ns", "time.time_ns"))
_MONOTONIC_START = 1_000.0  # virtual monotonic clocks start here (seconds)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class VirtualClock:
    """The state behind one ``frozen_clock`` block (what ``with frozen_clock() as clock`` binds).

    ``at`` is the block's starting instant, ``tick_seconds`` the monotonic step
    per read, ``slept`` the total virtual time slept or advanced.
    """

    def __init__(self, at: datetime, tick: float, traveller: Any, undo: Undo) -> None:
        self.at = at
        self.tick_seconds = tick
        self._traveller = traveller
        self._undo = undo
        self._mono_ns = int(_MONOTONIC_START * 1e9)
        self._tick_ns = round(tick * 1e9)
        self._lock = threading.Lock()
        self.slept = 0.0

    def read_ns(self) -> int:
        """Return the monotonic clock and advance it by one tick."""
        with self._lock:
            value = self._mono_ns
            self._mono_ns += self._tick_ns
            return value

    def advance(self, seconds: float | timedelta) -> None:
        """Move the clocks by ``seconds`` (a number or a ``timedelta``, not a string).

        Forward moves both clocks (sleeps and event-loop timer jumps call this too);
        backward (time-machine's ``shift(-10)``) moves the wall clock only, since the
        monotonic clock never goes back. Kept in integer nanoseconds.
        """
        delta_ns = nanoseconds(seconds, "advance")
        with self._lock:
            if delta_ns > 0:
                self._mono_ns += delta_ns
                self.slept += delta_ns / 1e9
            if delta_ns:
                _shift_ns(self._traveller, delta_ns)

    def tick(self, delta: float | timedelta = 1.0) -> datetime:
        """freezegun's ``tick``: :meth:`advance` by ``delta`` (default 1 s) and return :meth:`now`."""
        self.advance(delta)
        return self.now()

    def move_to(self, target: InstantLike | timedelta, tick: float | None = None) -> datetime:
        """Put the wall clock at ``target`` (any ``at`` form, or a ``timedelta`` from now),
        earlier or later; return :meth:`now`.

        The monotonic clock does not move (it never goes back). A target that
        names a zone makes it the local time zone until the block ends. ``tick``
        sets a new monotonic step per read (seconds, as ``frozen_clock(tick=)``);
        time-machine's ``tick=True`` (a wall clock running in real time) is refused.
        """
        if isinstance(target, timedelta):
            instant = Instant(self.now() + target, None)
        else:
            instant = parse_instant(target, "move_to")
        if tick is not None:
            step = _tick_seconds(tick, "move_to(tick=...)")
            self.tick_seconds, self._tick_ns = step, nanoseconds(step, "tick")
        with self._lock:
            self._traveller.move_to(_destination(instant.at))
        if instant.zone is not None:
            use_zone(self._undo, instant.zone)
        return self.now()

    def now_ns(self) -> int:
        """The monotonic clock, without a tick (the scheduler's now)."""
        return self._mono_ns

    def now(self) -> datetime:
        """The current (frozen + slept) wall-clock instant, timezone-aware."""
        return _EPOCH + timedelta(microseconds=_WALL_TIME_NS() // 1000)


def _shift_ns(traveller: Any, delta_ns: int) -> None:
    """time-machine's ``shift`` is exact for whole seconds (int); the rest is under 1 s."""
    whole, rest = divmod(delta_ns, 1_000_000_000)
    if whole:
        traveller.shift(whole)
    if rest:
        traveller.shift(rest / 1e9)


def _tick_seconds(tick: object, where: str) -> float:
    if isinstance(tick, bool) or not isinstance(tick, int | float):
        raise TypeError(
            f"{where}: expected seconds per monotonic read (a number >= 0), got {tick!r}; "
            "automock's wall clock never runs in real time (no tick=True)"
        )
    if tick < 0:
        raise ValueError("tick must be >= 0")
    return float(tick)


_stack: list[VirtualClock] = []


def current_clock() -> VirtualClock | None:
    """The innermost active virtual clock, or None outside ``frozen_clock``."""
    return _stack[-1] if _stack else None


def _clock() -> VirtualClock:
    return _stack[-1]


# The real functions, captured at import. A library that kept a reference to a
# patched function (Hypothesis keeps ``time.perf_counter``) may call it after
# the last clock has gone; it then gets the real clock, not an error.
_real_monotonic = _time.monotonic
_real_monotonic_ns = _time.monotonic_ns
_real_perf_counter = _time.perf_counter
_real_perf_counter_ns = _time.perf_counter_ns
_real_sleep = _time.sleep
_real_ctime = _time.ctime
_real_asctime = _time.asctime


def _ctime(seconds: float | None = None) -> str:
    """``time.ctime()`` with no argument reads the C clock, which time-machine leaves alone:
    it reads the (frozen) ``time.time`` instead."""
    return _real_ctime(_time.time() if seconds is None else seconds)


def _asctime(when: Any = None) -> str:
    """``time.asctime()`` with no argument: the (frozen) ``time.localtime()``."""
    return _real_asctime(_time.localtime() if when is None else when)


def _monotonic() -> float:
    return _stack[-1].read_ns() / 1e9 if _stack else _real_monotonic()


def _monotonic_ns() -> int:
    return _stack[-1].read_ns() if _stack else _real_monotonic_ns()


def _perf_counter() -> float:
    return _stack[-1].read_ns() / 1e9 if _stack else _real_perf_counter()


def _perf_counter_ns() -> int:
    return _stack[-1].read_ns() if _stack else _real_perf_counter_ns()


def _sleep(seconds: float) -> None:
    if not _stack:
        _real_sleep(seconds)
        return
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    record("time", "time.sleep", mocked=True)
    scheduler.sleep(_clock(), float(seconds))


class _StandInType(type):
    """Class checks against a stand-in are checks against the real class once it is loaded.

    Nothing can be an instance or a subclass of a class whose module was never
    imported, so until then the answer is False, without importing it.
    """

    _target: tuple[str, str]

    def _real(cls) -> type | None:
        module, name = cls._target
        real = getattr(sys.modules.get(module), name, None)
        return real if isinstance(real, type) and real is not cls else None

    def __instancecheck__(cls, instance: object) -> bool:
        real = cls._real()
        return real is not None and isinstance(instance, real)

    def __subclasscheck__(cls, subclass: type) -> bool:
        real = cls._real()
        return real is not None and issubclass(subclass, real)


def _stand_in_module(module: str, name: str) -> ModuleType:
    stand_in = ModuleType(module)
    setattr(stand_in, name, _StandInType(name, (), {"_target": (module, name)}))
    return stand_in


def _import_time_machine() -> Any:
    # time-machine imports pytest (~70 ms) only to define its fixture, dateutil
    # (~15 ms) only to parse strings (we pass datetimes), unittest (~10 ms) only for
    # ``issubclass(x, TestCase)`` when decorating a class and zoneinfo (~3 ms, with
    # sysconfig) only for ``isinstance(tz, ZoneInfo)``. Skip the first two when they
    # are not loaded already (e.g. in the sandbox child); for the last two it gets
    # stand-ins whose class checks use the real class once its module is loaded.
    if "time_machine" in sys.modules:
        return sys.modules["time_machine"]
    blocked = [name for name in ("pytest", "dateutil.parser") if name not in sys.modules]
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]
    stand_ins = [
        (module, name)
        for module, name in (("unittest", "TestCase"), ("zoneinfo", "ZoneInfo"))
        if module not in sys.modules
    ]
    for module, name in stand_ins:
        sys.modules[module] = _stand_in_module(module, name)
    try:
        import time_machine
    finally:
        for name in blocked:
            del sys.modules[name]
        for module, _ in stand_ins:
            del sys.modules[module]
    return time_machine


class _PlainUtc(tzinfo):
    """UTC that time-machine does not recognise: the local zone is ours to set, not its."""

    def utcoffset(self, dt: datetime | None) -> timedelta:
        return timedelta(0)

    def dst(self, dt: datetime | None) -> timedelta:
        return timedelta(0)

    def tzname(self, dt: datetime | None) -> str:
        return "UTC"


def _destination(at: datetime) -> datetime:
    """``at`` for time-machine, which sets ``TZ`` itself for a ``UTC`` or ``ZoneInfo`` instant."""
    return at.astimezone(_PlainUtc())


class frozen_clock(Patch[VirtualClock]):
    """Freeze the wall clock at ``at`` and run a virtual monotonic clock.

    Use as ``with frozen_clock("2024-01-01T00:00:00Z") as clock:``, ``async with``,
    ``clock = fc.start()`` ... ``fc.stop()``, or as a decorator on sync or async
    functions or on a class (its ``test*`` methods). Nested blocks stack; leaving a
    block restores the previous clock (or the real one). A ``timedelta`` ``at`` is
    relative to the time the block is entered at.
    """

    escape_hatch = escape_hatch  # the real time while frozen (automock.runtime.real_time)

    def __init__(
        self, at: InstantLike | timedelta = DEFAULT_INSTANT, *, tick: float = 0.001
    ) -> None:
        super().__init__()
        self.tick = _tick_seconds(tick, "frozen_clock(tick=...)")
        self.relative = at if isinstance(at, timedelta) else None
        instant = Instant(_entry_now(), None) if self.relative is not None else None
        self.instant = instant or parse_instant(at, "frozen_clock(at=...)")  # type: ignore[arg-type]
        self.at = self.instant.at

    def _start(self, undo: Undo) -> VirtualClock:
        if self.relative is not None:
            self.instant = Instant(_entry_now() + self.relative, None)
            self.at = self.instant.at
        time_machine = _import_time_machine()
        travel = time_machine.travel(_destination(self.at), tick=False)
        traveller = travel.start()
        undo.push(travel.stop)
        use_zone(undo, self.instant.zone or UTC_ZONE)
        clock = VirtualClock(self.at, self.tick, traveller, undo)
        watch_datetime_reads(undo, traveller)
        record_first_calls(undo, _time, _TIME_APIS, "time")
        first = not _stack
        _stack.append(clock)
        undo.push(lambda: _stack.remove(clock))
        if first:
            _install(undo)
        return clock


def _entry_now() -> datetime:
    """Where a relative (``timedelta``) block starts from: the enclosing clock, else real time."""
    return _stack[-1].now() if _stack else escape_hatch.datetime_now(UTC)


def _install(undo: Undo) -> None:
    undo.setattr(_time, "monotonic", _monotonic)
    undo.setattr(_time, "perf_counter", _perf_counter)
    undo.setattr(_time, "monotonic_ns", _monotonic_ns)
    undo.setattr(_time, "perf_counter_ns", _perf_counter_ns)
    undo.setattr(_time, "sleep", _sleep)
    undo.setattr(_time, "ctime", _ctime)
    undo.setattr(_time, "asctime", _asctime)
    # the scheduler: threads and event loops wake in virtual-time order (scheduler.py)
    undo.push(partial(scheduler.stop, scheduler.start(current_clock)))
    threads.install(undo, current_clock)
    event_loop.install(undo, current_clock)
