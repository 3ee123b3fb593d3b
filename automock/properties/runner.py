"""Function-level properties: call the function on one input and check its output.

:func:`evaluate` is the bridge between the value checks in
:mod:`automock.properties.checks` and a function under test. It copies the
arguments first (so a function that mutates its input cannot hide that), takes
the mutated argument as the output when the function returns ``None`` and is
in-place (an in-place ``shuffle`` or ``sort``; :func:`call_output` says how that
is decided), and turns an exception into a failed
property instead of an escape.
"""

from __future__ import annotations

import ast
import copy
import functools
import inspect
import traceback
import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from automock.errors import CallTimeout, InputError
from automock.properties._signature import function_tree, signature_of, type_hints
from automock.properties.assumed import broken_assumption
from automock.properties.checks import (
    PropertyResult,
    has_length,
    idempotent,
    is_sorted,
    order_statistic,
    permutation_of,
    round_trip,
    sample_without_replacement,
    subset_of,
    unique,
    within_bounds,
)

__all__ = [
    "DISTRIBUTION_PROPERTIES",
    "PROPERTIES",
    "REJECTED",
    "WHOLE_FUNCTION_PROPERTIES",
    "call_output",
    "canonical_property",
    "evaluate",
    "materialized",
    "rejected",
]

# name -> what it checks, for --help and error messages
PROPERTIES: Mapping[str, str] = {
    "permutation": "the output is a rearrangement of the input sequence (shuffles)",
    "sorted": "the output is in ascending order (options: reverse, strict)",
    "sample": "the output draws from the input without replacement; option k (a size or the name of the size parameter): len == min(k, len(input))",
    "subset": "every output element (or the one element returned) comes from the input sequence",
    "bounds": "every output value lies within [low, high] (options: low, high, each a number or a parameter's name)",
    "unique": "no output element repeats",
    "length": "the output has as many items as a count asked for (option n: the count parameter's name, or a list's: its length; none for a negative count)",
    "idempotent": "f(f(x)) == f(x)",
    "round_trip": "inverse(f(x)) == x (option: inverse = the decoding function)",
    "uniform": "over many seeded runs every element lands in every position equally often (chi-square); a dice roller's values fit the sum of fair dice (options: dice, faces); a string's shuffle is run on distinct letters (option: text)",
    "proportional": "over many seeded runs a weighted choice picks each element in proportion to its weight, or to its inverse (options: weights = the weights parameter's name; its list is the other parameter, or list = its name)",
    "tournament": "over many seeded runs a tournament selection's winners fit the best (or least) of `size` members drawn with or without replacement (options: tournament = LIST,WEIGHTS,SIZE, the three parameters' names)",
    "estimates": "over many seeded runs a Monte Carlo estimate averages to the value it estimates, within 2% or sampling error (options: value; count = the throws parameter's name, given 1000)",
    "order_statistic": "the output is the k-th smallest element of the input sequence (options: k = the parameter's name, base 0 or 1, largest)",
    "examples": "the docstring's examples print what they say, where their output does not change with the seed",
    "returns": "the call returns instead of raising (inferred for a function of no arguments seen raising: no input of it is outside its domain)",
}
DISTRIBUTION_PROPERTIES = frozenset({"uniform", "proportional", "tournament", "estimates"})
WHOLE_FUNCTION_PROPERTIES = frozenset({"examples"})  # the docstring's claims, not one input
REJECTED = "rejected its input"  # in a passing result's detail: outside the function's domain
_ALIASES: Mapping[str, str] = {
    "shuffle": "permutation",
    "is_sorted": "sorted",
    "ordering": "sorted",
    "sample_without_replacement": "sample",
    "subset_of": "subset",
    "within_bounds": "bounds",
    "roundtrip": "round_trip",
    "round-trip": "round_trip",
    "distribution": "uniform",
    "chi_square": "uniform",
}


def canonical_property(name: str) -> str:
    """The canonical name of a property, or an :class:`InputError` listing the valid ones."""
    key = name.strip().lower().replace(" ", "_")
    key = _ALIASES.get(key, key)
    if key not in PROPERTIES:
        raise InputError(f"unknown property {name!r}; expected one of {', '.join(PROPERTIES)}")
    return key


def _is_sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _first_sequence(args: Sequence[Any]) -> tuple[int, Any]:
    for index, arg in enumerate(args):
        if _is_sequence(arg):
            return index, arg
    return -1, None


def _resolve_k(fn: Callable[..., Any], args: Sequence[Any], k: Any) -> int | None:
    if k is None or isinstance(k, int):
        return k
    signature = signature_of(fn)
    if signature is None:
        return None
    try:
        bound = signature.bind(*args)
    except TypeError:
        return None
    bound.apply_defaults()  # a parameter left at its default (`num_sides=6`) still names it
    value = bound.arguments.get(str(k))
    if isinstance(value, list | tuple | str):  # a list named: as many items as it has
        return len(value)
    return value if isinstance(value, int) else None


def _changed(before: Any, after: Any) -> bool:
    try:
        return type(before) is not type(after) or bool(before != after)
    except Exception:  # an element that cannot compare: compare what it prints
        return repr(before) != repr(after)


def _declared_in_place(fn: Callable[..., Any]) -> bool:
    """Declared ``-> None``: a ``None`` return is then always the in-place convention."""
    return type_hints(fn).get("return", object) is type(None)


def materialized(value: Any) -> Any:
    """A generator's items as a list (a sampler that yields its draws); anything else as is."""
    return list(value) if isinstance(value, types.GeneratorType) else value


def call_output(
    fn: Callable[..., Any], args: Sequence[Any], *, in_place: bool = False
) -> tuple[Any, list[Any]]:
    """``(output, copied_args)`` of ``fn`` called on a deep copy of ``args``.

    A ``None`` return stands for the first sequence argument only when the
    function is in-place: it changed a sequence argument on this call (that
    argument is the output), or it is declared ``-> None`` (then an unchanged
    argument is the output too: an in-place sort of a sorted list changes
    nothing). Otherwise ``None`` is the output, so a function that forgot its
    ``return`` is not mistaken for an in-place one. The decision depends on
    this call only, so a search over many inputs stays reproducible.
    """
    copied = copy.deepcopy(list(args))
    before = copy.deepcopy(copied)
    output = materialized(fn(*copied))
    if output is not None:
        return output, copied
    for old, new in zip(before, copied, strict=True):
        if _is_sequence(new) and _changed(old, new):
            return new, copied
    index, _ = _first_sequence(copied)
    if index >= 0 and (in_place or _declared_in_place(fn)):  # seen in place, or declared
        return copied[index], copied
    return None, copied


def _what(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:200]


def rejected(exc: BaseException, fn: Callable[..., Any]) -> bool:
    """Did ``fn`` refuse an input outside its domain, on purpose (a precondition, not a failure)?

    Yes for an exception its own source raises with a ``raise`` statement (``if k < 0:
    raise ValueError(...)``, ``raise Exception("must roll 1 to 6 dice")``), and for the errors
    ``random`` raises for an empty or too small population (``choice([])``,
    ``sample(xs, len(xs) + 1)``, ``randrange(0)``) on the input it was given: in a
    recursive call the population is one the function made (an empty stretch past the
    pivot), and the error is its bug. An ``IndexError`` or a ``TypeError`` from an
    operator in the function's code stays a failure.
    """
    if not isinstance(exc, Exception) or isinstance(exc, AssertionError):
        return False
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return False
    last = frames[-1]
    try:
        own = inspect.getsourcefile(inspect.unwrap(fn))
    except (TypeError, ValueError):
        own = None
    drawn = isinstance(exc, ValueError | TypeError | IndexError)
    if drawn and Path(last.filename).name == "random.py" and "automock" not in last.filename:
        name = getattr(inspect.unwrap(fn), "__name__", "")
        calls = [f for f in frames if f.name == name and own and Path(f.filename) == Path(own)]
        return len(calls) <= 1
    line = (last.line or "").lstrip()
    return own is not None and Path(last.filename) == Path(own) and line.startswith("raise ")


@functools.lru_cache(maxsize=256)
def _none_on_purpose(code: Any) -> bool:
    """Does the function of this code object say ``return None`` itself (its answer for an
    input outside its domain, like ``quick_select(items, len(items))``)?"""
    tree = function_tree(code)
    if tree is None:
        return False
    return any(
        isinstance(node, ast.Return)
        and isinstance(node.value, ast.Constant)
        and node.value.value is None
        for node in ast.walk(tree)
    )


def _call_text(fn: Callable[..., Any], args: Sequence[Any]) -> str:
    name = getattr(fn, "__name__", "f")
    inner = ", ".join(repr(a) for a in args)
    text = f"{name}({inner})"
    return text if len(text) <= 160 else text[:157] + "..."


def evaluate(
    fn: Callable[..., Any],
    args: Sequence[Any],
    prop: str,
    options: Mapping[str, Any] | None = None,
    *,
    preconditions: bool = False,
    refuses: Callable[[BaseException], bool] | None = None,
) -> PropertyResult:
    """Check property ``prop`` of ``fn`` on one input ``args``.

    With ``preconditions``, an input ``fn`` refuses on purpose (:func:`rejected`,
    or ``refuses(exc)`` when given, or a ``None`` from a function whose own code
    says ``return None``) is outside its domain: the result passes, its detail
    says ``rejected``.

    A failure's ``counterexample`` is the argument list; ``detail`` says what
    the call returned and which part of the output broke the property.
    """
    name = canonical_property(prop)
    opts = dict(options or {})
    if name in DISTRIBUTION_PROPERTIES:
        raise InputError(
            f"property {name!r} is checked over many runs; use "
            "automock.properties.shuffle_uniformity instead of evaluate()"
        )
    if name in WHOLE_FUNCTION_PROPERTIES:
        raise InputError(
            f"property {name!r} runs the docstring's examples, not one input; use "
            "automock.properties.documented.documented_examples instead of evaluate()"
        )
    call = _call_text(fn, args)
    if name == "idempotent":
        if len(args) != 1:
            raise InputError(
                f"property 'idempotent' needs a one-argument function, {call} has {len(args)}"
            )
        result = idempotent(lambda v: call_output(fn, [v])[0], args[0])
        return _with_args(result, args, call)
    if name == "round_trip":
        inverse = opts.get("inverse")
        if not callable(inverse):
            raise InputError("property 'round_trip' needs the inverse function (option 'inverse')")
        if len(args) != 1:
            raise InputError(
                f"property 'round_trip' needs a one-argument function, {call} has {len(args)}"
            )
        result = round_trip(lambda v: call_output(fn, [v])[0], inverse, args[0])
        return _with_args(result, args, call)
    assumed = broken_assumption(fn, args) if preconditions else None
    if assumed is not None:
        return PropertyResult(name, True, f"{call} {REJECTED}: {assumed}")
    try:
        output, _ = call_output(fn, args, in_place=bool(opts.get("in_place")))
    except (CallTimeout, MemoryError, OverflowError):  # too long or big: the caller's verdict
        raise
    except Exception as exc:
        if preconditions and (rejected(exc, fn) or (refuses is not None and refuses(exc))):
            return PropertyResult(name, True, f"{call} {REJECTED}: {_what(exc)}")
        return PropertyResult(name, False, f"{call} raised {_what(exc)}", list(args))
    if name == "returns":
        return PropertyResult(name, True, f"{call} returned")
    code = getattr(inspect.unwrap(fn), "__code__", None)
    if output is None and preconditions and code is not None and _none_on_purpose(code):
        return PropertyResult(name, True, f"{call} {REJECTED}: it says `return None` for it")
    _, original = _first_sequence(args)
    if name == "permutation" and original is None and isinstance(output, str):
        original = next((a for a in args if isinstance(a, str)), None)  # a word's letters
    if name in ("permutation", "sample", "subset", "order_statistic") and original is None:
        raise InputError(
            f"property {name!r} needs a function that takes a sequence; {call} has none"
        )
    if name == "permutation":
        result = permutation_of(output, original)
    elif name == "sample":
        k = _resolve_k(fn, args, opts.get("k"))
        # a sample cannot be larger than its population (nor negative)
        size = None if k is None else max(0, min(k, len(original)))
        result = sample_without_replacement(output, original, size)
    elif name == "subset" and output is None and opts.get("choice"):
        result = PropertyResult(name, True, f"{call} chose nothing (None)")
    elif name == "subset":
        result = subset_of(output, original)
    elif name == "order_statistic":
        k = _resolve_k(fn, args, opts.get("k"))
        base, largest = int(opts.get("base", 0)), bool(opts.get("largest"))
        result = order_statistic(output, original, k, base=base, largest=largest)
    elif name == "length":
        result = has_length(output, _resolve_k(fn, args, opts.get("n")))
    elif name == "sorted":
        result = is_sorted(
            output, reverse=bool(opts.get("reverse")), strict=bool(opts.get("strict"))
        )
    elif name == "bounds":
        low, high = opts.get("low"), opts.get("high")  # a number, or a parameter's name
        low = _resolve_k(fn, args, low) if isinstance(low, str) else low
        high = _resolve_k(fn, args, high) if isinstance(high, str) else high
        result = within_bounds(output, low, high)
    else:
        result = unique(output)
    if result.passed:
        return result
    shown = repr(output)
    shown = shown if len(shown) <= 160 else shown[:157] + "..."
    return PropertyResult(name, False, f"{call} returned {shown}: {result.detail}", list(args))


def _with_args(result: PropertyResult, args: Sequence[Any], call: str) -> PropertyResult:
    if result.passed:
        return result
    return PropertyResult(result.name, False, f"{call}: {result.detail}", list(args))
