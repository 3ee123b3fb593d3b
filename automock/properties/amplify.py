"""More inputs than the tests give: the tests' inputs mutated, and drawn from the type hints.

:func:`generate_inputs` builds up to ``count`` argument tuples for a function
from three sources, in this order:

- the tests' own inputs (:func:`~automock.properties.testcases.cases_from_tests`);
- type-aware mutations of them: ints moved by one, negated, set to the
  boundaries ``0``, ``1``, ``-1``; strings and lists emptied, shrunk, grown,
  reversed, edited element by element (nested structures too), plus the
  small edits of :func:`~automock.properties.fresh.neighbours`;
- Hypothesis: values like the examples (:func:`~automock.properties.fresh.strategy_like`)
  and from the signature's type hints (:func:`~automock.properties.hypothesis_glue.strategy_for`),
  drawn derandomized (the same inputs on every run).

With a reference function, :func:`keep_reference_runs` keeps only the inputs on
which it returns plain data without raising, within ``per_call`` seconds, and
pairs each with its output. Inputs are ordered smallest first
(:func:`~automock.properties.outputs.size_of`), so the first disagreement
found is the smallest. :func:`shrink_steps` gives the smaller neighbours of a
counterexample, for shrinking it further.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import itertools
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from automock.properties.fresh import neighbours, strategy_like
from automock.properties.lookup import Overtime, time_limit
from automock.properties.outputs import same_output, size_of
from automock.properties.testcases import cases_from_tests, distinct_args

__all__ = [
    "DEFAULT_COUNT",
    "bounded",
    "deterministic",
    "generate_inputs",
    "is_plain",
    "keep_reference_runs",
    "shrink_steps",
    "source_text",
]

DEFAULT_COUNT = 200
MAX_ITEMS = 2_000  # values in one input or output
MAX_TEXT = 20_000  # characters of strings and bytes in one input or output
_PLAIN = (type(None), bool, int, float, complex, str, bytes)
_NAMES = {"inf": math.inf, "nan": math.nan}


def is_plain(value: Any, budget: list[int] | None = None, depth: int = 0) -> bool:
    """Small plain data that survives ``repr`` -> ``eval``: the channel's types, at most
    ``MAX_ITEMS`` values and ``MAX_TEXT`` characters in all (a huge input or output judges
    nothing a small one would not, and costs every candidate)."""
    left = budget if budget is not None else [MAX_ITEMS, MAX_TEXT]
    left[0] -= 1
    kind = type(value)
    if left[0] < 0 or depth > 30:
        return False
    if kind in (str, bytes):
        left[1] -= len(value)
        return left[1] >= 0
    if kind in _PLAIN:
        return not (kind is int and abs(value) > 10**300)
    if kind in (list, tuple, set, frozenset):
        return all(is_plain(v, left, depth + 1) for v in value)
    if kind is dict:
        return all(
            is_plain(k, left, depth + 1) and is_plain(v, left, depth + 1) for k, v in value.items()
        )
    return False


def source_text(value: Any) -> str:
    """``value`` as Python source that ``eval`` rebuilds (``inf``/``nan`` as names)."""
    return repr(value)


def _round_trips(value: Any) -> bool:
    try:
        rebuilt = eval(source_text(value), {"__builtins__": {}, **_NAMES})
    except Exception:
        return False
    return type(rebuilt) is type(value) and same_output(value, rebuilt)


def _variants(value: Any, rng: random.Random) -> list[Any]:
    """Type-aware mutations of one value (nested ones edited through their elements)."""
    kind = type(value)
    if kind is bool:
        return [not value]
    if kind is int:
        return [value + 1, value - 1, -value, 0, 1, -1, value * 2]
    if kind is float:
        return [value + 1.0, value - 1.0, -value, 0.0, value / 2, value + 0.5]
    if kind is str:
        out = ["", value[::-1], value + value[-1:], value.upper(), value.lower(), value + " "]
        out += [value + "0", "0" + value, value + "a"]  # a digit or a letter more at either end
        if value:
            i = rng.randrange(len(value))
            out += [value[:i] + value[i + 1 :], value[:i] + value[i] * 2 + value[i + 1 :]]
        return out
    if kind in (list, tuple):
        items = list(value)
        out_items: list[list[Any]] = [[], items[::-1], items[:-1], items[1:], items + items[-1:]]
        if items:
            i = rng.randrange(len(items))
            out_items += [[*items[:i], v, *items[i + 1 :]] for v in _variants(items[i], rng)[:4]]
            shuffled = items[:]
            rng.shuffle(shuffled)
            out_items.append(shuffled)
        return [kind(v) for v in out_items]
    if kind is dict and value:
        key = rng.choice(list(value))
        smaller = {k: v for k, v in value.items() if k != key}
        return [{}, smaller] + [{**value, key: v} for v in _variants(value[key], rng)[:3]]
    return []


def _mutations(examples: Sequence[tuple[Any, ...]], seed: int) -> Iterable[tuple[Any, ...]]:
    rng = random.Random(seed)
    for row in examples:
        for i, value in enumerate(row):
            for variant in _variants(value, rng):
                yield (*row[:i], variant, *row[i + 1 :])
    if examples:
        yield from neighbours(examples, 4 * len(examples) + 40, seed)


def _drawn(strategy: Any, count: int) -> list[tuple[Any, ...]]:
    from hypothesis import HealthCheck, Phase, given, settings

    found: list[tuple[Any, ...]] = []

    @settings(
        max_examples=count,
        database=None,
        derandomize=True,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def draw(args: tuple[Any, ...]) -> None:
        found.append(copy.deepcopy(args))

    with contextlib.suppress(Exception):  # a strategy that cannot draw: what it drew is kept
        draw()
    return found


def generate_inputs(
    tests: str,
    entry_point: str,
    *,
    count: int = DEFAULT_COUNT,
    signature_of: Callable[..., Any] | None = None,
    seed: int = 0,
) -> list[tuple[Any, ...]]:
    """Up to ``count * 3`` distinct candidate argument tuples (the reference filter comes next).

    ``signature_of``: a function with ``entry_point``'s signature and type hints
    (the reference, or the prompt's stub), for the Hypothesis draws.
    """
    try:
        examples = distinct_args(cases_from_tests(tests, entry_point))
    except Exception:  # tests that do not parse: the type hints alone
        examples = []
    sources: list[list[tuple[Any, ...]]] = [list(_mutations(examples, seed))]
    if examples:
        sources.append(_drawn(strategy_like(examples), count // 2))
    if signature_of is not None:
        from automock.properties.hypothesis_glue import strategy_for

        with contextlib.suppress(Exception):  # no hints and no examples for a parameter
            sources.append(_drawn(strategy_for(signature_of, examples=examples), count // 2))
    pool: list[tuple[Any, ...]] = list(examples)
    for row in itertools.zip_longest(*sources):  # the sources in turn: each gets its share
        pool += [args for args in row if args is not None]
    seen: set[str] = set()
    out: list[tuple[Any, ...]] = []
    for args in pool:
        if not is_plain(args) or not _round_trips(args):
            continue
        key = repr(args)
        if key not in seen:
            seen.add(key)
            out.append(args)
        if len(out) >= count * 3:
            break
    return out


def _largest_int(value: Any) -> int:
    kind = type(value)
    if kind is int:
        return int(abs(value))
    if kind in (list, tuple, set, frozenset):
        return max((_largest_int(v) for v in value), default=0)
    if kind is dict:
        return max((_largest_int(v) for kv in value.items() for v in kv), default=0)
    if kind in (str, bytes):
        return len(value)
    return 0


def _clamp(value: Any, limit: int) -> Any:
    kind = type(value)
    if kind is int and abs(value) > limit:
        return value % limit if value > 0 else -(-value % limit)
    if kind in (list, tuple, set, frozenset):
        return kind(_clamp(v, limit) for v in value)
    if kind is dict:
        return {_clamp(k, limit): _clamp(v, limit) for k, v in value.items()}
    if kind in (str, bytes) and len(value) > limit:
        return value[:limit]
    return value


def bounded(
    inputs: Sequence[tuple[Any, ...]],
    examples: Sequence[tuple[Any, ...]],
    floor: int = 1000,
    factor: int = 10,
) -> list[tuple[Any, ...]]:
    """The inputs with ints (and string lengths) brought within ``max(floor, 10 * the
    examples' largest)`` (modulo it), each once: with no reference to time them, a drawn
    size of 10**9 would only cost every candidate a timeout."""
    limit = max(floor, factor * max((_largest_int(e) for e in examples), default=0))
    found = {repr(c): c for c in (_clamp(args, limit) for args in inputs)}
    return list(found.values())


@contextlib.contextmanager
def _no_gc_callbacks() -> Iterator[None]:
    """Without ``gc.callbacks`` (Hypothesis installs one) while the reference runs: a time
    limit's signal that lands in a callback is printed and ignored, not raised."""
    saved = gc.callbacks[:]
    gc.callbacks.clear()
    try:
        yield
    finally:
        gc.callbacks[:] = saved


def keep_reference_runs(
    reference: Callable[..., Any],
    inputs: Sequence[tuple[Any, ...]],
    *,
    count: int = DEFAULT_COUNT,
    per_call: float = 0.25,
    budget: float = 10.0,
) -> tuple[list[tuple[Any, ...]], list[Any], float]:
    """``(inputs, outputs, seconds)``: up to ``count`` inputs the reference answers with plain
    data in time (the tests' inputs first), smallest first; ``seconds`` its total time."""
    import time

    kept: list[tuple[tuple[Any, ...], Any]] = []
    spent = 0.0
    for args in inputs:
        if len(kept) >= count or spent > budget:
            break
        started = time.perf_counter()
        try:
            with _no_gc_callbacks(), time_limit(per_call):
                output = reference(*copy.deepcopy(args))
        except (Exception, Overtime):
            continue
        finally:
            spent += time.perf_counter() - started
        if is_plain(output) and _round_trips(output):
            kept.append((args, output))
    kept.sort(key=lambda pair: size_of(pair[0]))
    return [a for a, _ in kept], [o for _, o in kept], spent


def deterministic(
    reference: Callable[..., Any], inputs: Sequence[tuple[Any, ...]], per_call: float = 1.0
) -> bool:
    """Whether the reference gives the same outputs under two ``random`` seeds (the
    multi-seed observation): if not, its answer is not unique and properties judge it."""
    outputs: list[list[Any]] = []
    state = random.getstate()
    try:
        for seed in (1, 2):
            random.seed(seed)
            seen = []
            for args in inputs:
                try:
                    with _no_gc_callbacks(), time_limit(per_call):
                        seen.append(reference(*copy.deepcopy(args)))
                except (Exception, Overtime):
                    seen.append(None)
            outputs.append(seen)
    finally:
        random.setstate(state)
    return all(same_output(a, b) for a, b in zip(*outputs, strict=True))


def shrink_steps(args: tuple[Any, ...], limit: int = 60) -> list[tuple[Any, ...]]:
    """Smaller neighbours of ``args``: one argument made smaller (elements dropped, halves,
    numbers toward 0, nested items shrunk), smallest first."""
    out: list[tuple[Any, ...]] = []
    for i, value in enumerate(args):
        for smaller in _smaller(value):
            out.append((*args[:i], smaller, *args[i + 1 :]))
    unique = {repr(a): a for a in out if size_of(a) < size_of(args)}
    return sorted(unique.values(), key=size_of)[:limit]


def _smaller(value: Any) -> list[Any]:
    kind = type(value)
    if kind is int and not isinstance(value, bool):
        return [v for v in {0, value // 2, value - 1 if value > 0 else value + 1} if v != value]
    if kind is float:
        return [v for v in (0.0, float(int(value)), value / 2) if v != value]
    if kind in (str, list, tuple) and value:
        n = len(value)
        out = [value[: n // 2], value[n // 2 :]]
        out += [value[:i] + value[i + 1 :] for i in range(min(n, 12))]
        if kind is not str:
            for i in range(min(n, 6)):
                out += [value[:i] + kind([s]) + value[i + 1 :] for s in _smaller(value[i])[:2]]
        return out
    if kind is dict and value:
        return [{k: v for k, v in value.items() if k != key} for key in list(value)[:8]]
    return []
