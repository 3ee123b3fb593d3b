"""Frozen wall clock plus a virtual monotonic clock.

``frozen_clock(at, tick=0.001)`` freezes the wall clock (``time.time``,
``time.time_ns``, ``datetime.now/utcnow/today``, ``date.today``,
``time.localtime/gmtime/strftime`` defaults) with time-machine, which patches
the C implementations, so ``from time import time`` done earlier is frozen
too. time-machine has no virtual monotonic clock, so this module replaces
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

Access log: ``time.time`` and ``time.time_ns`` are recorded on their first
call through the module (a wrapper that records, then puts the frozen
builtin back). The ``datetime`` reads (``datetime.datetime.now/today/utcnow``,
``datetime.date.today``) cannot be wrapped (immutable C types); time-machine
asks the block's traveller for the time on every wall-clock read, so a small
replacement of that call finds, once per call site, which datetime API the
calling code called, and records it.
"""

from __future__ import annotations

import sys
import threading
import time as _time
from datetime import UTC, datetime
from functools import partial
from types import CodeType, FrameType, ModuleType
from typing import Any

from automock.plan.model import DEFAULT_INSTANT
from automock.runtime import event_loop, scheduler, threads
from automock.runtime._base import Patch, Undo
from automock.runtime.events import record, record_first_calls

__all__ = ["DEFAULT_INSTANT", "VirtualClock", "current_clock", "frozen_clock"]

# captured at import so our replacements never call themselves
_REAL_SLEEP = _time.sleep
# the builtins (frozen in C by time-machine): our own reads go unrecorded
_WALL_TIME = _time.time
_WALL_TIME_NS = _time.time_ns
_TIME_APIS = (("time", "time.time"), ("time_ns", "time.time_ns"))
_MONOTONIC_START = 1_000.0  # virtual monotonic clocks start here (seconds)


class VirtualClock:
    """The state behind one ``frozen_clock`` block."""

    def __init__(self, at: datetime, tick: float, traveller: Any) -> None:
        self.at = at
        self.tick = tick
        self._traveller = traveller
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

    def advance(self, seconds: float) -> None:
        """Move both clocks forward (a sleep or an event-loop timer jump)."""
        if seconds <= 0:
            return
        with self._lock:
            self._mono_ns += round(seconds * 1e9)
            self.slept += seconds
            self._traveller.shift(seconds)

    def now_ns(self) -> int:
        """The monotonic clock, without a tick (the scheduler's now)."""
        return self._mono_ns

    def now(self) -> datetime:
        """The current (frozen + slept) wall-clock instant, timezone-aware."""
        return datetime.fromtimestamp(_WALL_TIME(), tz=UTC)


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


def _parse_instant(at: str | datetime) -> datetime:
    instant = at if isinstance(at, datetime) else datetime.fromisoformat(at.replace("Z", "+00:00"))
    return instant if instant.tzinfo else instant.replace(tzinfo=UTC)


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


class frozen_clock(Patch[VirtualClock]):
    """Freeze the wall clock at ``at`` and run a virtual monotonic clock.

    Use as ``with frozen_clock("2024-01-01T00:00:00Z") as clock:`` or as a
    decorator on sync or async functions. Nested blocks stack; leaving a block
    restores the previous clock (or the real one).
    """

    def __init__(self, at: str | datetime = DEFAULT_INSTANT, *, tick: float = 0.001) -> None:
        super().__init__()
        if tick < 0:
            raise ValueError("tick must be >= 0")
        self.at = _parse_instant(at)
        self.tick = float(tick)

    def _start(self, undo: Undo) -> VirtualClock:
        time_machine = _import_time_machine()
        travel = time_machine.travel(self.at, tick=False)
        traveller = travel.start()
        undo.push(travel.stop)
        clock = VirtualClock(self.at, self.tick, traveller)
        _watch_datetime_reads(undo, traveller)
        record_first_calls(undo, _time, _TIME_APIS, "time")
        first = not _stack
        _stack.append(clock)
        undo.push(lambda: _stack.remove(clock))
        if first:
            _install(undo)
        return clock


# names under which a call reads the wall clock through datetime
_DATETIME_NAMES = frozenset({"now", "utcnow", "today"})
_LOADS = frozenset(
    {"LOAD_ATTR", "LOAD_METHOD", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_DEREF"}
)


def _datetime_api(name: str, receiver: str) -> str:
    if name == "today":
        return "datetime.date.today" if receiver == "date" else "datetime.datetime.today"
    return f"datetime.datetime.{name}"


def _called_api(code: CodeType, lasti: int) -> str | None:
    """The datetime API called by the instruction at ``lasti``, if any.

    The callee is the last name loaded before the call whose source span
    starts where the call's does (``dt.datetime.now`` in ``dt.datetime.now(tz)``);
    the name loaded just before it is the receiver (``datetime``, ``date``).
    Runs once per call site.
    """
    import dis

    instructions = [i for i in dis.get_instructions(code) if i.offset <= lasti]
    if not instructions or instructions[-1].positions is None:
        return None
    call = instructions[-1].positions
    loads = [
        str(i.argval)
        for i in instructions[:-1]
        if i.opname in _LOADS
        and i.positions is not None
        and (i.positions.lineno, i.positions.col_offset) == (call.lineno, call.col_offset)
    ]
    if not loads or loads[-1] not in _DATETIME_NAMES:
        return None
    return _datetime_api(loads[-1], loads[-2] if len(loads) > 1 else "")


def _watch_datetime_reads(undo: Undo, traveller: Any) -> None:
    """Record the datetime APIs read in the block, once per API.

    time-machine's C functions call ``traveller.time_ns()`` on every wall-clock
    read; an instance attribute shadows that method. The calling frame is the
    Python code that called ``datetime.now`` (C functions have no frame). A
    code object whose names include none of now/utcnow/today is remembered as
    plain after one look; reads from code that does name them are classified
    once per call site by :func:`_called_api`. A read from the same plain code
    as the previous one costs a frame lookup and an identity test; once all
    four APIs are recorded, only a truth test.
    """
    if getattr(traveller, "_tick", True) is not False or not hasattr(
        traveller, "_destination_timestamp_ns"
    ):
        return  # an unknown time-machine: leave its traveller alone
    # keyed by id(code); ``codes`` keeps them alive so ids are not reused
    codes: list[CodeType] = []
    plain: set[int] = set()
    sites: dict[int, dict[int, str | None]] = {}
    pending = {_datetime_api(name, r) for name in _DATETIME_NAMES for r in ("", "date")}
    getframe = sys._getframe
    # the code object of the last read from plain code: a hot loop re-reading
    # from one place costs a frame lookup and an identity test
    last_plain: CodeType | None = None
    last_site: tuple[CodeType | None, int] = (None, -1)

    def classify(frame: FrameType) -> None:
        nonlocal last_plain, last_site
        code = frame.f_code
        lasti = frame.f_lasti
        if last_site[0] is code and last_site[1] == lasti:
            return  # the same datetime call site as last time
        key = id(code)
        calls = sites.get(key)
        if calls is None:
            if key in plain:
                last_plain = code
                return
            codes.append(code)
            if _DATETIME_NAMES.isdisjoint(code.co_names):
                plain.add(key)
                last_plain = code
                return
            calls = sites[key] = {}
        last_site = (code, lasti)
        if lasti not in calls:
            api = calls[lasti] = _called_api(code, lasti)
            if api is not None:
                record("time", api, mocked=True)
                pending.discard(api)

    def time_ns() -> int:
        if pending and getframe(1).f_code is not last_plain:
            classify(getframe(1))
        return traveller._destination_timestamp_ns  # type: ignore[no-any-return]

    traveller.time_ns = time_ns
    undo.push(lambda: vars(traveller).pop("time_ns", None))


def _install(undo: Undo) -> None:
    undo.setattr(_time, "monotonic", _monotonic)
    undo.setattr(_time, "perf_counter", _perf_counter)
    undo.setattr(_time, "monotonic_ns", _monotonic_ns)
    undo.setattr(_time, "perf_counter_ns", _perf_counter_ns)
    undo.setattr(_time, "sleep", _sleep)
    # the scheduler: threads and event loops wake in virtual-time order (scheduler.py)
    undo.push(partial(scheduler.stop, scheduler.start(current_clock)))
    threads.install(undo, current_clock)
    event_loop.install(undo, current_clock)
