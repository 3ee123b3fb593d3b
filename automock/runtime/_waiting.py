"""A thread registered with the virtual-clock scheduler, and what it waits for."""

from __future__ import annotations

import _thread
from collections.abc import Callable
from typing import Any

__all__ = ["Entry", "Waiter", "thread_state"]

_RUNNING, _BLOCKED = 0, 1


class Entry:
    """One registered thread."""

    __slots__ = (
        "deadline",
        "ended",
        "failed",
        "ident",
        "joiners",
        "loop",
        "native_id",
        "notified",
        "on_wake",
        "seq",
        "state",
        "thread",
        "waiter",
        "wake",
    )

    def __init__(self, thread: Any) -> None:
        self.thread = thread
        self.ident = 0
        self.native_id = 0
        self.state = _RUNNING
        self.deadline: int | None = None
        self.seq = 0
        self.waiter: Waiter | None = None
        self.notified = False
        self.on_wake: Callable[[], object] | None = None
        self.loop: object = None
        self.joiners: list[Waiter] = []
        self.ended = False
        self.failed: BaseException | None = None  # what stopped the thread before it ran
        self.wake = _thread.allocate_lock()
        self.wake.acquire()  # held while no wake is pending

    @property
    def name(self) -> str:
        return str(getattr(self.thread, "name", "?"))

    def bind(self) -> None:
        """Called by the thread itself once it runs."""
        self.ident = _thread.get_ident()
        self.native_id = _thread.get_native_id()


class Waiter:
    """What a blocked thread waits for besides its deadline (a notify, a thread's end).

    ``release()`` is what ``Condition.notify`` calls on the objects in its
    ``_waiters``: it raises RuntimeError when the waiter already gave up (timed
    out), so ``notify(1)`` moves on to the next waiter, whatever the timing.
    """

    __slots__ = ("done", "entry", "notified", "scheduler")

    def __init__(self, scheduler: Any, entry: Entry) -> None:
        self.scheduler = scheduler
        self.entry = entry
        self.notified = False
        self.done = False

    def release(self) -> None:
        if not self.scheduler.notify(self):
            raise RuntimeError("release unlocked lock")


def thread_state(native_id: int) -> str:
    """The kernel's state letter of a thread of this process (R running, S/D blocked), or ``?``."""
    try:
        with open(f"/proc/self/task/{native_id}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return "?"
    return stat[stat.rfind(b")") + 2 :][:1].decode("ascii", "replace")
