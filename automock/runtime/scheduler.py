"""A deterministic scheduler for the virtual clock: blocked threads wake in virtual-time order.

Under :func:`~automock.runtime.clock.frozen_clock` a sleep does not wait. With
several threads that alone makes the program *less* deterministic than plain
Python (a spinner sleeping 0.1 s beside a main thread sleeping 10 s prints a
count that depends on the OS scheduler). This module extends trio's autojump
clock to threads:

- Every thread started while a clock is active (and the thread that entered
  it) is *registered*: it is running, or blocked in a virtual wait
  (``time.sleep``, ``Condition.wait`` and what is built on it, ``Thread.join``,
  a ``threading.Lock`` acquire, an event loop's wait; :mod:`.threads`,
  :mod:`.event_loop`), with or without a virtual deadline.
- Virtual time advances only when no registered thread is running: the
  blocked thread with the earliest deadline is woken, the clock moved to its
  deadline. Ties wake in the order the waits began. One thread is woken at a
  time, so what happens at one virtual instant is serialised.
- A wake by another thread (``notify``, ``set``, a thread's end) marks the
  waiter running *before* it is released, so time cannot advance past it.
- A registered thread blocked on something the scheduler does not see (real
  I/O, a lock created before the block) counts as running. When no scheduler
  event has happened for :data:`STALL` real seconds, blocked threads (looking
  every :data:`GRACE`) check the running ones (``/proc/self/task/<tid>/stat``):
  if none is on a CPU, time advances; if one computes, it may for
  :data:`BUSY_LIMIT` real seconds. Each such advance records an unmocked
  ``thread`` access naming the threads.
"""

from __future__ import annotations

import _thread
import heapq
import itertools
import os
import time as _time
from collections.abc import Callable
from typing import Any, Protocol

from automock.runtime._waiting import _BLOCKED, _RUNNING, Entry, Waiter, thread_state
from automock.runtime.events import record

__all__ = ["BUSY_LIMIT", "GRACE", "STALL", "Entry", "Scheduler", "Waiter", "active", "sleep"]

GRACE = 0.005  # real seconds between a blocked thread's looks around
STALL = 0.05  # real seconds without a scheduler event before threads blocked elsewhere are passed
BUSY_LIMIT = 0.5  # real seconds a computing thread holds virtual time still

_real_monotonic = _time.monotonic


class ClockLike(Protocol):
    def now_ns(self) -> int: ...
    def advance(self, seconds: float) -> None: ...


class Scheduler:
    """The registered threads, the virtual deadlines, and who runs next."""

    def __init__(self, clock: Callable[[], ClockLike | None]) -> None:
        self._clock = clock
        self._lock = _thread.allocate_lock()
        self._owner = 0
        self._threads: dict[Any, Entry] = {}
        self._by_ident: dict[int, Entry] = {}
        self._heap: list[tuple[int, int, Entry]] = []
        self._seq = itertools.count()
        self._running = 0
        self._progress = 0
        self.closed = False
        self._closed_at = 0

    # -- the lock ---------------------------------------------------------------
    def __enter__(self) -> None:
        self._lock.acquire()
        self._owner = _thread.get_ident()

    def __exit__(self, *exc: object) -> None:
        self._owner = 0
        self._lock.release()

    def holds_lock(self) -> bool:
        """True in the thread inside the scheduler (its own lock waits must stay real)."""
        return self._owner == _thread.get_ident()

    # -- registration -----------------------------------------------------------
    def register(self, thread: Any, *, bind: bool = False) -> Entry:
        entry = Entry(thread)
        if bind:
            entry.bind()
        with self:
            self._threads[thread] = entry
            if bind:
                self._by_ident[entry.ident] = entry
            self._running += 1
            self._progress += 1
        return entry

    def bind(self, entry: Entry) -> None:
        entry.bind()
        with self:
            self._by_ident[entry.ident] = entry

    def unregister(self, entry: Entry) -> None:
        """``entry``'s thread ends (or failed to start): wake its joiners."""
        with self:
            if self._threads.get(entry.thread) is entry:
                del self._threads[entry.thread]
            if self._by_ident.get(entry.ident) is entry:
                del self._by_ident[entry.ident]
            if entry.state == _RUNNING:
                self._running -= 1
            entry.ended = True
            for waiter in entry.joiners:
                self._notify_locked(waiter)
            entry.joiners.clear()
            self._progress += 1
            if self._running == 0:
                self._advance_locked()

    def current(self) -> Entry | None:
        """The calling thread's entry, or None if it is not registered (or the scheduler closed)."""
        return None if self.closed else self._by_ident.get(_thread.get_ident())

    def entry_of(self, thread: Any) -> Entry | None:
        return self._threads.get(thread)

    def live(self) -> list[Entry]:
        with self:
            return list(self._threads.values())

    def join_waiter(self, me: Entry, target: Entry) -> Waiter | None:
        """A waiter released when ``target`` ends; None if it has ended already."""
        waiter = Waiter(self, me)
        with self:
            if target.ended:
                return None
            target.joiners.append(waiter)
        return waiter

    # -- time -------------------------------------------------------------------
    def deadline(self, seconds: float | None) -> int | None:
        if seconds is None:
            return None
        clock = self._clock()
        now = clock.now_ns() if clock is not None else 0
        return now + max(0, round(seconds * 1e9))

    # -- blocking ---------------------------------------------------------------
    def _enter_block(self, entry: Entry, deadline: int | None, waiter: Waiter | None) -> bool:
        """Mark ``entry`` blocked; False if its waiter was notified already (no block)."""
        with self:
            if waiter is not None and waiter.notified:
                waiter.done = True
                return False
            entry.state = _BLOCKED
            entry.deadline = deadline
            entry.waiter = waiter
            entry.notified = False
            entry.seq = next(self._seq)
            self._running -= 1
            self._progress += 1
            if deadline is not None:
                heapq.heappush(self._heap, (deadline, entry.seq, entry))
            if self._running == 0:
                self._advance_locked()
        return True

    def block(self, entry: Entry, deadline: int | None, waiter: Waiter | None = None) -> bool:
        """Block the calling thread until woken or its virtual deadline.

        True when woken by its waiter (a notify, a thread's end), False at the deadline.
        """
        if self.closed:
            return self.settle(waiter) if waiter is not None else False
        if not self._enter_block(entry, deadline, waiter):
            return True
        seen, since = -1, 0.0
        try:
            while not entry.wake.acquire(True, GRACE):
                if self.closed:
                    self._wait_real(entry)
                    break
                seen, since = self._check_stall(entry, seen, since)
        except BaseException:  # e.g. KeyboardInterrupt: the thread runs again, and unwinds
            self._resume(entry)
            raise
        return entry.notified

    def _wait_real(self, entry: Entry) -> None:
        """The clock is gone: wait out the rest of the deadline in real time (or the wake)."""
        rest = None if entry.deadline is None else (entry.deadline - self._closed_at) / 1e9
        if not entry.wake.acquire(True, -1 if rest is None else max(0.0, rest)):
            self._resume(entry)

    def block_io(
        self, entry: Entry, deadline: int | None, poll: Callable[[], list[Any]], loop: object
    ) -> list[Any]:
        """:meth:`block` for an event loop: ``poll`` (a short real select) may end it with events."""
        entry.loop = loop
        try:
            if not self._enter_block(entry, deadline, None):
                return []
            seen, since = -1, 0.0
            while True:
                if entry.wake.acquire(False):
                    return []
                if self.closed:  # the loop's next select is real
                    self._resume(entry)
                    return []
                events = poll()
                if events:
                    self._resume(entry)
                    return events
                seen, since = self._check_stall(entry, seen, since)
        finally:
            entry.loop = None
            entry.on_wake = None

    def _resume(self, entry: Entry) -> None:
        """The blocked thread found work itself (real I/O): running again."""
        with self:
            if entry.state == _BLOCKED:
                entry.state = _RUNNING
                entry.waiter = None
                self._running += 1
                self._progress += 1
                return
        entry.wake.acquire()  # woken meanwhile: take the pending wake

    def settle(self, waiter: Waiter) -> bool:
        """The waiter gives up without blocking; True if it was notified already."""
        with self:
            waiter.done = True
            return waiter.notified

    # -- waking -----------------------------------------------------------------
    def notify(self, waiter: Waiter) -> bool:
        with self:
            return self._notify_locked(waiter)

    def _notify_locked(self, waiter: Waiter) -> bool:
        if waiter.done:
            return False
        waiter.done = waiter.notified = True
        entry = waiter.entry
        if entry.state == _BLOCKED and entry.waiter is waiter:
            self._wake_locked(entry, notified=True)
        return True

    def wake_loop(self, loop: object) -> None:
        """Another thread wrote to ``loop``'s self-pipe: the loop's thread runs again now."""
        with self:
            for entry in self._threads.values():
                if entry.loop is loop and entry.state == _BLOCKED:
                    self._wake_locked(entry, notified=True)

    def _wake_locked(self, entry: Entry, *, notified: bool) -> None:
        entry.state = _RUNNING
        entry.notified = notified
        if entry.waiter is not None:
            entry.waiter.done = True
            entry.waiter = None
        self._running += 1
        self._progress += 1
        entry.wake.release()
        if entry.on_wake is not None:
            entry.on_wake()

    def _advance_locked(self) -> bool:
        """Wake the blocked thread with the earliest deadline, moving the clock to it."""
        heap = self._heap
        while heap:
            deadline, seq, entry = heapq.heappop(heap)
            if entry.state != _BLOCKED or entry.seq != seq:
                continue  # woken otherwise since
            clock = self._clock()
            if clock is not None:
                now = clock.now_ns()
                if deadline > now:
                    clock.advance((deadline - now) / 1e9)
            self._wake_locked(entry, notified=False)
            return True
        return False

    # -- threads outside the scheduler's view -----------------------------------
    def _check_stall(self, entry: Entry, seen: int, since: float) -> tuple[int, float]:
        """Advance if nothing happened for ``STALL`` real seconds and the running threads are
        blocked in the kernel (``BUSY_LIMIT`` if one is on a CPU). Returns (seen, since)."""
        now = _real_monotonic()
        with self:
            if entry.state != _BLOCKED or self._progress != seen:
                return self._progress, now
            if self._running <= 0 or not self._heap or now - since < STALL:
                return seen, since
            running = [e for e in self._threads.values() if e.state == _RUNNING]
        states = {e.name: thread_state(e.native_id) for e in running}
        computing = [name for name, state in states.items() if state == "R"]
        if computing and now - since < BUSY_LIMIT:
            return seen, since
        with self:
            if self._progress != seen or not self._advance_locked():
                return self._progress, now
            progress = self._progress
        for name in sorted(states):
            api = (
                "ran while virtual time advanced"
                if name in computing
                else "blocked outside the virtual clock"
            )
            record("thread", api, name, mocked=False, fix=_FIX)
        return progress, now

    # -- end and fork -----------------------------------------------------------
    def close(self) -> None:
        """The clock is gone: blocked threads wait out their deadlines in real time."""
        clock = self._clock()
        with self:
            self._closed_at = clock.now_ns() if clock is not None else 0
            self.closed = True

    def after_fork(self) -> None:
        """In a forked child only the forking thread exists."""
        self._lock = _thread.allocate_lock()
        self._owner = 0
        me = self._by_ident.get(_thread.get_ident())
        if me is None:  # forked from a thread it did not know: the child's only thread is its main
            import threading

            me = Entry(threading.current_thread())
            me.bind()
        self._threads = {me.thread: me}
        self._by_ident = {me.ident: me}
        self._heap = []
        self._running = 1
        self._progress = 0
        me.state = _RUNNING
        me.native_id = _thread.get_native_id()
        me.joiners = []


_FIX = (
    "virtual time advanced while this registered thread was outside the scheduler "
    "(real I/O, a lock created before the run, or computing); its timing may vary between runs"
)


_active: Scheduler | None = None


def active() -> Scheduler | None:
    """The scheduler of the active clocks, or None (not closed ones)."""
    return _active


def start(clock: Callable[[], ClockLike | None]) -> Scheduler:
    """Create the scheduler and register the calling thread (the one entering the clock)."""
    global _active
    import threading

    scheduler = Scheduler(clock)
    scheduler.register(threading.current_thread(), bind=True)
    _active = scheduler
    return scheduler


def stop(scheduler: Scheduler) -> None:
    global _active
    if _active is scheduler:
        _active = None
    scheduler.close()


def sleep(clock: ClockLike, seconds: float) -> None:
    """``time.sleep`` under the clock: wait for its virtual deadline in the scheduler."""
    scheduler = _active
    entry = scheduler.current() if scheduler is not None else None
    if scheduler is None or entry is None:  # a thread the scheduler does not know
        clock.advance(seconds)
        return
    scheduler.block(entry, clock.now_ns() + round(seconds * 1e9))


def _after_fork_in_child() -> None:
    if _active is not None:
        _active.after_fork()


os.register_at_fork(after_in_child=_after_fork_in_child)
