"""The access log: what the code under the runtime touched, mocked or not.

Every runtime patch records an :class:`Access` here. The sandbox child
serialises the log into the report; the pytest plugin prints the unmocked
ones. The log is process-global on purpose (one program per process), but
each :func:`recording` block gets its own list.

Reads of already-frozen or already-seeded APIs (``time.time``,
``random.random``, ...) are recorded by :func:`record_first_call`: a wrapper
that records once, then puts the original back, so the hot path pays nothing
after the first call.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import struct
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import FunctionType
from typing import TYPE_CHECKING, Any

from automock._serialize import JsonMixin

if TYPE_CHECKING:
    from automock.runtime._base import Undo

__all__ = [
    "FORKS",
    "Access",
    "AccessLog",
    "current_log",
    "record",
    "record_first_call",
    "record_first_calls",
    "recording",
]


@dataclass(frozen=True, slots=True)
class Access(JsonMixin):
    """One runtime access of a touchpoint family.

    ``mocked`` is False when the runtime had to refuse it (fail closed);
    ``fix`` then says what to add to the plan, e.g.
    ``add a stub_http entry for GET https://api.example.com/v1/x``. ``served_by``
    names what answered a mocked request (``stub #2 GET prefix https://... [entries[3],
    line 12]``), "" for other accesses.
    """

    kind: str
    api: str
    target: str = ""
    mocked: bool = True
    fix: str = ""
    served_by: str = ""


FORKS = frozenset({"os.fork"})  # process accesses that fork without starting a program
_COUNT = struct.Struct("=Q")
_CALLS = struct.Struct("=QQ")  # starts, forks


class AccessLog:
    """Thread-safe, de-duplicating (by kind, api, target, mocked, served_by) list of accesses.

    Process accesses are also counted, every call (``process_calls``): the parent compares
    them with the program starts and forks the kernel saw (:mod:`automock.sandbox.run.starts`).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: list[Access] = []
        self._seen: set[tuple[str, str, str, bool, str]] = set()
        # shared with forked children (an anonymous shared mapping), so a start made in a
        # child forked with os.fork is counted where the report is written
        self._calls = mmap.mmap(-1, _CALLS.size)
        _logs.add(self)

    @property
    def process_calls(self) -> dict[str, int]:
        """``{"starts": n, "forks": m}``: the programs started and processes forked, each call
        (forked children's included)."""
        with self._lock:
            starts, forks = _CALLS.unpack_from(self._calls)
        return {"starts": starts, "forks": forks}

    def add(self, access: Access) -> None:
        key = (access.kind, access.api, access.target, access.mocked, access.served_by)
        with self._lock:
            if access.kind == "process":
                offset = _CALLS.size // 2 if access.api in FORKS else 0
                (count,) = _COUNT.unpack_from(self._calls, offset)
                _COUNT.pack_into(self._calls, offset, count + 1)
            if key in self._seen:
                return
            self._seen.add(key)
            self._items.append(access)

    def merged(self, other: AccessLog | None) -> tuple[list[Access], dict[str, int]]:
        """The accesses of this log, then those only ``other`` has, and their process calls
        summed (``other`` counted once, even when it is this log)."""
        seen, calls = list(self.accesses), self.process_calls
        if other is not None and other is not self:
            seen += [a for a in other.accesses if a not in seen]
            calls = {k: n + other.process_calls[k] for k, n in calls.items()}
        return seen, calls

    @property
    def accesses(self) -> tuple[Access, ...]:
        with self._lock:
            return tuple(self._items)

    @property
    def unmocked(self) -> tuple[Access, ...]:
        return tuple(a for a in self.accesses if not a.mocked)


_stack: list[AccessLog] = []
_logs: weakref.WeakSet[AccessLog] = weakref.WeakSet()


def _after_fork() -> None:
    """In a forked child: a lock another thread of the parent held at the fork stays held
    forever there, so every log gets a fresh one (the child has only the forking thread)."""
    for log in list(_logs):
        log._lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork)


def current_log() -> AccessLog | None:
    return _stack[-1] if _stack else None


def record(
    kind: str,
    api: str,
    target: str = "",
    *,
    mocked: bool = True,
    fix: str = "",
    served_by: str = "",
) -> None:
    """Record an access in the innermost active log (no-op outside one)."""
    log = current_log()
    if log is not None:
        log.add(Access(kind, api, target, mocked, fix, served_by))


@contextlib.contextmanager
def recording(log: AccessLog | None = None) -> Iterator[AccessLog]:
    active = log if log is not None else AccessLog()
    _stack.append(active)
    try:
        yield active
    finally:
        _stack.remove(active)


def record_first_call(undo: Undo, owner: Any, name: str, kind: str, api: str) -> None:
    """Record ``api`` on the first call of ``owner.name``, then step aside.

    ``owner.name`` is replaced (restored by ``undo``) with a wrapper that
    records a mocked access, puts the original back (if it is still the one
    installed) and calls it. Later calls go straight to the original, so
    values and cost are the original's (a reference to the wrapper itself,
    taken in the block before the first call, pays one flag test and the
    forwarding). A reference taken before the block is never recorded.
    """
    record_first_calls(undo, owner, ((name, api),), kind)


def record_first_calls(undo: Undo, owner: Any, names: Iterable[tuple[str, str]], kind: str) -> None:
    """:func:`record_first_call` for several ``(name, api)`` pairs of one owner."""
    originals = [(name, _first_call(owner, name, kind, api)) for name, api in names]

    def restore() -> None:
        for name, original in reversed(originals):
            # an outer block's wrapper that has already recorded is not put
            # back: what it stepped aside for is
            value: Any = original
            while type(value) is FunctionType and hasattr(value, "_automock_settled"):
                value = value._automock_settled
            setattr(owner, name, value)

    undo.push(restore)


def _first_call(owner: Any, name: str, kind: str, api: str) -> Any:
    original: Callable[..., Any] = getattr(owner, name)
    done = False

    def first_call(*args: Any, **kwargs: Any) -> Any:
        nonlocal done
        if not done:  # a reference kept to the wrapper records only once too
            done = True
            first_call._automock_settled = original  # type: ignore[attr-defined]
            record(kind, api, mocked=True)
            if getattr(owner, name, None) is first_call:
                setattr(owner, name, original)
        return original(*args, **kwargs)

    first_call.__name__ = name
    first_call.__wrapped__ = original  # type: ignore[attr-defined]
    setattr(owner, name, first_call)
    return original
