"""Which ``datetime`` APIs a frozen-clock block read, for the access log.

The ``datetime`` reads (``datetime.datetime.now/today/utcnow``,
``datetime.date.today``) cannot be wrapped (immutable C types); time-machine
asks the block's traveller for the time on every wall-clock read, so a small
replacement of that call finds, once per call site, which datetime API the
calling code called, and records it (:func:`watch_datetime_reads`).
"""

from __future__ import annotations

import sys
from types import CodeType, FrameType
from typing import Any

from automock.runtime._base import Undo
from automock.runtime.events import record

__all__ = ["watch_datetime_reads"]

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


def watch_datetime_reads(undo: Undo, traveller: Any) -> None:
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
