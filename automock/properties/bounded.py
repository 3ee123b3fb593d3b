"""One call of a function under check: seeded from its input, under a time bound.

A random function checked over generated inputs must answer the same way each
time it meets the same input, or a shrunk counterexample re-run later may pass
and two identical checks may disagree. So every call runs inside the
runtime's ``seeded_random`` with a seed derived from the check's seed and the
call's arguments (:func:`call_seed`): re-running a failing input replays the
very run that failed.

Every call also runs under a time bound (the main thread only, elsewhere no
bound): ``seconds`` of the process's CPU time (``ITIMER_PROF``), so a busy call
is stopped after about as much of its work on an idle machine as on a
loaded one, and two identical checks agree, and :data:`WALL_FACTOR` times that of wall-clock time
(``ITIMER_REAL``) for a call that waits. A call past either is interrupted, and whatever
the function did with the interruption (a bare ``except`` that keeps looping is
interrupted again every 50 ms) the call ends in :class:`~automock.errors.CallTimeout`,
a verdict of its own, never a failure of the property.

And under a memory bound (the address-space limit, ``MEMORY_BYTES`` above what
the process uses; Linux): a generated size that asks for gigabytes runs out of
it, and the call ends in :class:`~automock.errors.CallTooCostly` (the input
costs too much), never in a failure and never in the machine's memory; so does
a size past what the platform's integers hold (``OverflowError``).
"""

from __future__ import annotations

import contextlib
import functools
import math
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from automock._seed import derive
from automock.errors import CallTimeout, CallTooCostly
from automock.properties.checks import PropertyResult

__all__ = ["DEFAULT_CALL_SECONDS", "bounded", "call_seed", "repeated_property", "seeded"]

DEFAULT_CALL_SECONDS = 5.0
WALL_FACTOR = 3.0  # a call's wall-clock bound, as a multiple of its CPU bound
MEMORY_BYTES = 2 * 1024**3  # what one checked call may add to the process's address space
T = TypeVar("T")


def call_seed(seed: int, args: Any) -> int:
    """The seed a call on ``args`` runs under in a check seeded with ``seed``."""
    return derive(seed, "property call", repr(args), bits=32)


def replay_seed(seed: int, args: Any, replay: int) -> int:
    """Another seed for a call on ``args`` (``replay`` 1, 2, ...), in a check seeded with ``seed``."""
    return derive(seed, "property replay", repr(args), replay, bits=32)


def seeded(seed: int) -> contextlib.AbstractContextManager[Any]:
    """Every RNG seeded from ``seed`` (the runtime's ``seeded_random``), else ``random`` only."""
    from automock.properties.distribution import seeder

    return seeder()(seed)


class _Bound:
    def __init__(self) -> None:
        self.expired = False


@contextlib.contextmanager
def _time_bound(seconds: float) -> Iterator[_Bound]:
    bound = _Bound()
    usable = (
        seconds > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield bound
        return

    def expire(signum: int, frame: Any) -> None:
        bound.expired = True
        raise CallTimeout(f"the call ran past its {seconds:g}s bound")

    # CPU time first (ITIMER_PROF): a busy call is stopped after about as much of its work
    # however loaded the machine is; wall time (ITIMER_REAL) as the backstop for a call that waits
    timers = (
        (signal.ITIMER_PROF, signal.SIGPROF, 1.0),
        (signal.ITIMER_REAL, signal.SIGALRM, WALL_FACTOR),
    )
    previous = [(number, signal.signal(number, expire)) for _, number, _ in timers]
    for timer, _, factor in timers:
        signal.setitimer(timer, seconds * factor, 0.05)
    try:
        yield bound
    finally:
        for timer, _, _ in timers:
            signal.setitimer(timer, 0, 0)
        for number, handler in previous:
            signal.signal(number, handler)


def _address_space() -> int | None:
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except (ImportError, OSError, ValueError, IndexError):
        return None


@contextlib.contextmanager
def _memory_bound(extra: int) -> Iterator[None]:
    """The process's address space capped at what it uses plus ``extra`` (lowered only)."""
    used = _address_space()
    if used is None:
        yield
        return
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = min(v for v in (used + extra, soft, hard) if v != resource.RLIM_INFINITY)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):  # already below what is used: leave it
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def bounded(
    call: Callable[[], T], *, seed: int, seconds: float = DEFAULT_CALL_SECONDS, what: str = ""
) -> T:
    """``call()`` under ``seeded(seed)`` and a ``seconds`` bound; :class:`CallTimeout` past it."""
    # the bound inside the seeding: an alarm never lands in seeded()'s enter or exit, which
    # would leave the RNG patches half applied for every later caller
    expired = costly = False
    with seeded(seed):
        try:
            with _time_bound(seconds) as bound, _memory_bound(MEMORY_BYTES):
                result = call()
            expired = bound.expired  # the call caught the timeout itself
        except CallTimeout:
            expired = True
        except (MemoryError, OverflowError):  # a size past the memory bound or the platform's
            costly = True
    if costly:
        raise CallTooCostly(f"{what or 'the call'} ran out of its memory bound (input too costly)")
    if expired:
        raise CallTimeout(f"{what or 'the call'} did not finish within {seconds:g}s (a hang)")
    return result


def repeated_property(
    fn: Callable[[], Any], prop: str, options: Any, runs: int, seed: int
) -> PropertyResult:
    """``prop`` of a function with no arguments over ``runs`` seeded calls (its only input is
    the seed): the first call that breaks it, replayable with its seed, else a pass."""
    from automock.properties.distribution import derive_seed
    from automock.properties.runner import evaluate

    outputs: list[Any] = []

    @functools.wraps(fn)
    def recorded() -> Any:
        outputs.append(fn())
        return outputs[-1]

    for index in range(runs):
        run_seed = derive_seed(seed, index)
        try:
            result = bounded(lambda: evaluate(recorded, (), prop, options), seed=run_seed)
        except CallTimeout as exc:
            return PropertyResult(prop, False, f"run {index}: {exc}", [], timed_out=True)
        if not result.passed:
            detail = f"run {index} (seed {run_seed}): {result.detail}"
            return PropertyResult(prop, False, detail, [])
    held = PropertyResult(prop, True, f"held on {runs} seeded runs (seed {seed})")
    edge = (options or {}).get("reached")
    return held if edge is None else _reached(outputs, edge, options, held)


# below this a value of the range drawn too rarely to be one of its numbers (Poisson tail)
_REACHED_ALPHA = 1e-6


def _reached(
    outputs: Sequence[Any], edge: Any, options: Any, held: PropertyResult
) -> PropertyResult:
    """Was ``edge`` (a bound's end, ``reached``) drawn about as often as any value of
    ``[low, high]``? Fails when its count is below a Poisson's ``_REACHED_ALPHA`` tail (a
    lottery of ``2..46`` never draws its 1)."""
    values = [v for out in outputs for v in (out if isinstance(out, list | tuple) else [out])]
    low, high = options.get("low"), options.get("high")
    if not isinstance(low, int | float) or not isinstance(high, int | float) or high < low:
        return held
    expected = len(values) / (high - low + 1)
    count = sum(1 for v in values if v == edge)
    log_e = math.log(expected) if expected > 0 else 0.0
    tail = sum(math.exp(i * log_e - expected - math.lgamma(i + 1)) for i in range(count + 1))
    if count >= expected or tail >= _REACHED_ALPHA:
        return held
    detail = (
        f"{edge!r} drawn {count} times in {len(outputs)} seeded runs, about {expected:.0f} "
        f"expected of each value in [{low:g}, {high:g}]: the range does not start there"
    )
    return PropertyResult(held.name, False, detail, [])
