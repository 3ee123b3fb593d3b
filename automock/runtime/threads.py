"""The threading and queue patches that put blocking calls under the virtual-clock scheduler.

Installed by the first active clock (:mod:`automock.runtime.clock`), undone with it:

- ``Thread.start`` registers the new thread before it exists (so time cannot
  advance before it first runs); its end unregisters it and wakes its joiners.
- ``Thread.join`` waits in the scheduler (a timeout is virtual).
- ``Condition.wait`` waits in the scheduler; ``Event``, ``Semaphore``,
  ``Barrier``, ``Timer``, ``queue.Queue`` and ``concurrent.futures`` are built
  on it. ``threading``'s and ``queue``'s own clock reads (``_time``, ``time``)
  read the virtual monotonic clock without a tick, so their remaining-timeout
  loops end and do not move the program's clock.
- ``threading.Lock()`` / ``RLock()`` made in the block are :class:`VirtualLock`
  based: a contended ``acquire`` (with or without timeout) waits in the
  scheduler and ``release`` wakes the first waiter.
- ``queue.SimpleQueue`` (C) becomes the pure-Python one (built on a
  ``Semaphore``), so idle ``ThreadPoolExecutor`` workers count as blocked.
- At interpreter exit the non-daemon threads are joined through the scheduler
  (a ``threading`` exit hook, run after the program's own).
"""

from __future__ import annotations

import _thread
import contextlib
import sys
import threading
import time as _time
from collections import deque
from collections.abc import Callable
from types import ModuleType
from typing import Any

from automock.runtime import scheduler as _scheduler
from automock.runtime._base import Undo
from automock.runtime._imports import when_imported

__all__ = ["VirtualLock", "install"]

_real_monotonic = _time.monotonic
_orig_start = threading.Thread.start
_orig_bootstrap = threading.Thread._bootstrap_inner  # type: ignore[attr-defined]
_orig_join = threading.Thread.join
_orig_wait = threading.Condition.wait
_PyRLock: Any = threading._PyRLock  # type: ignore[attr-defined]


def _me() -> tuple[_scheduler.Scheduler, _scheduler.Entry] | None:
    scheduler = _scheduler.active()
    entry = scheduler.current() if scheduler is not None else None
    return None if entry is None or scheduler is None else (scheduler, entry)


class VirtualLock:
    """``threading.Lock`` while a clock is active: contended acquires wait in virtual time."""

    __slots__ = ("__weakref__", "_lock", "_waiters")

    def __init__(self) -> None:
        self._lock = _thread.allocate_lock()
        self._waiters: deque[_scheduler.Waiter] = deque()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if self._lock.acquire(False):
            return True
        if not blocking:
            if timeout != -1:
                raise ValueError("can't specify a timeout for a non-blocking call")
            return False
        found = _me()
        if found is None or found[0].holds_lock():
            return self._lock.acquire(True, timeout)
        if timeout < 0 and timeout != -1:
            raise ValueError("timeout value must be a non-negative number")
        scheduler, entry = found
        deadline = None if timeout == -1 else scheduler.deadline(timeout)
        while True:
            waiter = _scheduler.Waiter(scheduler, entry)
            self._waiters.append(waiter)
            if self._lock.acquire(False):
                scheduler.settle(waiter)
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
                return True
            woken = scheduler.block(entry, deadline, waiter)
            with contextlib.suppress(ValueError):
                self._waiters.remove(waiter)
            if self._lock.acquire(False):
                return True
            if not woken:
                return False

    def release(self) -> None:
        self._lock.release()
        while self._waiters:
            try:
                self._waiters.popleft().release()
                return
            except (RuntimeError, IndexError):
                continue

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()

    def locked(self) -> bool:
        return self._lock.locked()

    def _at_fork_reinit(self) -> None:
        self._lock._at_fork_reinit()  # type: ignore[attr-defined]
        self._waiters.clear()

    def __repr__(self) -> str:
        state = "locked" if self._lock.locked() else "unlocked"
        return f"<{state} automock.VirtualLock object at {id(self):#x}>"


def _virtual_rlock(*args: Any, **kwargs: Any) -> Any:
    lock = _PyRLock()
    lock._block = VirtualLock()
    return lock


def _start(self: threading.Thread) -> None:
    scheduler = _scheduler.active()
    if scheduler is None or scheduler.closed or self._started.is_set():  # type: ignore[attr-defined]
        return _orig_start(self)
    entry = scheduler.register(self)
    try:
        _orig_start(self)
    except BaseException:
        scheduler.unregister(entry)
        raise
    if entry.failed is not None:  # as CPython says when the thread's stack cannot be had
        raise RuntimeError("can't start new thread") from entry.failed


def _bootstrap_inner(self: threading.Thread) -> None:
    scheduler = _scheduler.active()
    entry = scheduler.entry_of(self) if scheduler is not None else None
    if scheduler is None or entry is None:
        return _orig_bootstrap(self)  # type: ignore[no-any-return]
    try:
        scheduler.bind(entry)
        _orig_bootstrap(self)
    except BaseException as exc:  # a MemoryError at the address-space limit before it ran
        if self._started.is_set():  # type: ignore[attr-defined]
            raise
        _abandon(self, entry, exc)
    finally:
        scheduler.unregister(entry)
    return None


def _abandon(thread: threading.Thread, entry: _scheduler.Entry, exc: BaseException) -> None:
    """The new thread failed before it was started: end it unstarted and release its starter,
    which waits on ``_started`` and would otherwise wait forever (as it does in CPython)."""
    entry.failed = exc
    with threading._active_limbo_lock:  # type: ignore[attr-defined]
        threading._limbo.pop(thread, None)  # type: ignore[attr-defined]
    thread._is_stopped = True  # type: ignore[attr-defined]
    thread._started.set()  # type: ignore[attr-defined]


def _join(self: threading.Thread, timeout: float | None = None) -> None:
    found = _me()
    scheduler = _scheduler.active()
    target = scheduler.entry_of(self) if scheduler is not None else None
    if found is None or target is None or target is found[1]:
        return _orig_join(self, timeout)
    scheduler, me = found
    waiter = scheduler.join_waiter(me, target)
    if waiter is None:  # ended in the scheduler: its real end is imminent
        return _orig_join(self, timeout)
    deadline = None if timeout is None else scheduler.deadline(max(timeout, 0))
    if scheduler.block(me, deadline, waiter):
        _orig_join(self)


def _wait(self: Any, timeout: float | None = None) -> bool:
    found = _me()
    if found is None:
        return _orig_wait(self, timeout)
    if not self._is_owned():
        raise RuntimeError("cannot wait on un-acquired lock")
    scheduler, entry = found
    waiter = _scheduler.Waiter(scheduler, entry)
    self._waiters.append(waiter)
    saved = self._release_save()
    notified = False
    try:
        if timeout is not None and timeout <= 0:
            notified = scheduler.settle(waiter)
        else:
            notified = scheduler.block(entry, scheduler.deadline(timeout), waiter)
        return notified
    finally:
        self._acquire_restore(saved)
        if not notified:
            with contextlib.suppress(ValueError):
                self._waiters.remove(waiter)


def _join_non_daemon_threads() -> None:
    """A threading exit hook (runs after the program's): join the registered threads."""
    found = _me()
    if found is None:
        return
    scheduler, me = found
    executors = sys.modules.get("concurrent.futures.thread")
    if executors is not None:  # its exit hook may come after ours: end idle workers first
        executors._python_exit()
    while others := [
        e.thread for e in scheduler.live() if e is not me and not e.thread.daemon and not e.ended
    ]:
        for thread in others:
            thread.join()


_exit_hook_registered = False


def _register_exit_hook() -> None:
    global _exit_hook_registered
    if _exit_hook_registered or threading._SHUTTING_DOWN:  # type: ignore[attr-defined]
        return
    threading._register_atexit(_join_non_daemon_threads)  # type: ignore[attr-defined]
    _exit_hook_registered = True


def _patch_queue(undo: Undo, queue: ModuleType, now: Callable[[], float]) -> None:
    undo.setattr(queue, "time", now)
    undo.setattr(queue, "SimpleQueue", queue._PySimpleQueue)


def install(undo: Undo, clock: Callable[[], _scheduler.ClockLike | None]) -> None:
    """Patch threading (and queue, now or when imported) for the active scheduler."""
    _register_exit_hook()

    def now() -> float:  # timeout arithmetic reads the virtual clock without a tick
        active = clock()
        return active.now_ns() / 1e9 if active is not None else _real_monotonic()

    thread = threading.Thread
    undo.setattr(thread, "start", _start)
    undo.setattr(thread, "_bootstrap_inner", _bootstrap_inner)
    undo.setattr(thread, "join", _join)
    undo.setattr(threading.Condition, "wait", _wait)
    undo.setattr(threading, "_time", now)
    undo.setattr(threading, "Lock", VirtualLock)
    undo.setattr(threading, "RLock", _virtual_rlock)
    when_imported(undo, {"queue": lambda module: _patch_queue(undo, module, now)})
