"""asyncio under the virtual clock: loop timers wake in virtual-time order, without waiting.

``loop.time()`` reads the virtual monotonic clock without a tick, so a loop's
own reads do not move it and ``asyncio.sleep(7)`` moves both clocks by 7 s. ``asyncio.sleep``,
``call_later``, ``wait_for`` and ``asyncio.timeout`` are loop timers, so
they need nothing of their own: the first ``call_at`` on a selector event loop
wraps that loop's selector. When nothing is ready and the loop would block
until its next timer, its thread blocks in the scheduler
(:mod:`automock.runtime.scheduler`) with that timer as virtual deadline: alone,
the clock jumps there at once; beside other registered threads, it wakes in
virtual-time order with them. A write to the loop's self-pipe from another
thread (``call_soon_threadsafe``, an executor's result) wakes it in the
scheduler first, so time cannot advance past it; real I/O is polled every
:data:`~automock.runtime.scheduler.GRACE` seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from automock.runtime import scheduler as _scheduler
from automock.runtime._base import Undo
from automock.runtime._imports import when_imported
from automock.runtime.events import record_first_calls

__all__ = ["install"]

Clock = Callable[[], "_scheduler.ClockLike | None"]


def _wait(loop: Any, real_select: Callable[..., Any], timeout: float | None, clock: Clock) -> Any:
    scheduler = _scheduler.active()
    entry = scheduler.current() if scheduler is not None else None
    if scheduler is None or entry is None:  # a thread the scheduler does not know
        active = clock()
        if timeout is None or active is None:
            return real_select(timeout)
        active.advance(timeout)
        return []
    entry.on_wake = getattr(loop, "_automock_write_to_self", None)
    return scheduler.block_io(
        entry, scheduler.deadline(timeout), lambda: real_select(_scheduler.GRACE), loop
    )


class _LoopPatch:
    """Make selector event loops wait in virtual time instead of blocking on timers."""

    def __init__(self, clock: Clock, write_to_self: Callable[[Any], None]) -> None:
        self.clock = clock
        self.write_to_self = write_to_self
        self.selectors: list[Any] = []

    def virtualize(self, loop: Any) -> None:
        selector = getattr(loop, "_selector", None)
        if selector is None or "select" in vars(selector):
            return
        real_select = selector.select
        clock = self.clock

        def select(timeout: float | None = None) -> Any:
            if (timeout is not None and timeout <= 0) or clock() is None:
                return real_select(timeout)
            events = real_select(0)
            if events:
                return events
            return _wait(loop, real_select, timeout, clock)

        selector.select = select
        write = self.write_to_self
        loop._automock_write_to_self = lambda: write(loop)
        self.selectors.append((selector, loop))

    def restore(self) -> None:
        for selector, loop in self.selectors:
            vars(selector).pop("select", None)
            vars(loop).pop("_automock_write_to_self", None)
        self.selectors.clear()


def _patch(undo: Undo, asyncio: ModuleType, clock: Clock) -> None:
    import asyncio.base_events
    import asyncio.selector_events

    record_first_calls(undo, asyncio, (("sleep", "asyncio.sleep"),), "time")
    selector_loop = asyncio.selector_events.BaseSelectorEventLoop
    original_write = selector_loop._write_to_self
    loops = _LoopPatch(clock, original_write)
    undo.push(loops.restore)
    original_call_at = asyncio.base_events.BaseEventLoop.call_at

    def call_at(self: Any, when: float, callback: Any, *args: Any, context: Any = None) -> Any:
        loops.virtualize(self)
        return original_call_at(self, when, callback, *args, context=context)

    def write_to_self(self: Any) -> None:
        scheduler = _scheduler.active()
        if scheduler is not None:
            scheduler.wake_loop(self)
        original_write(self)

    original_time = asyncio.base_events.BaseEventLoop.time

    def loop_time(self: Any) -> float:
        active = clock()
        return active.now_ns() / 1e9 if active is not None else original_time(self)

    undo.setattr(asyncio.base_events.BaseEventLoop, "call_at", call_at)
    undo.setattr(asyncio.base_events.BaseEventLoop, "time", loop_time)
    undo.setattr(selector_loop, "_write_to_self", write_to_self)


def install(undo: Undo, clock: Clock) -> None:
    """Patch asyncio when the program uses it (~25 ms to import: never imported for us)."""
    when_imported(undo, {"asyncio": lambda module: _patch(undo, module, clock)})
