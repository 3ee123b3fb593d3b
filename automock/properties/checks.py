"""Value-level property checks for outputs that have no single right answer.

A shuffle has ``n!`` right answers, a sample has many, a sort has exactly one
but checking "is sorted and is a permutation of the input" says more than
comparing against one expected list. Each check here takes the observed
output (and what it should relate to) and returns a frozen
:class:`PropertyResult`; a failure names the smallest piece of evidence it
found (the missing element, the first out-of-order pair, ...) in
``counterexample`` and explains it in ``detail``.

Nothing here runs the function under test: :mod:`automock.properties.runner`
does that, and :mod:`automock.properties.hypothesis_glue` generates inputs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from automock._serialize import JsonMixin, to_jsonable

__all__ = [
    "PropertyResult",
    "has_length",
    "idempotent",
    "is_sorted",
    "order_statistic",
    "permutation_of",
    "round_trip",
    "sample_without_replacement",
    "subset_of",
    "unique",
    "within_bounds",
]


@dataclass(frozen=True, slots=True)
class PropertyResult(JsonMixin):
    """The verdict of one property on one observation.

    ``counterexample`` is ``None`` when the property holds; otherwise the
    smallest evidence of the failure (for checks run over generated inputs,
    the shrunk input that breaks the property).
    """

    name: str
    passed: bool
    detail: str = ""
    counterexample: Any = None
    timed_out: bool = False  # a call hung: its own verdict, not a broken property

    def __bool__(self) -> bool:
        return self.passed

    @property
    def verdict(self) -> str:
        """``pass``, ``fail`` or ``timeout``."""
        return "timeout" if self.timed_out else ("pass" if self.passed else "fail")

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "passed": self.passed,
            "verdict": self.verdict,
            "detail": self.detail,
            "counterexample": to_jsonable(self.counterexample),
        }


def _ok(name: str, detail: str = "") -> PropertyResult:
    return PropertyResult(name=name, passed=True, detail=detail)


def _fail(name: str, detail: str, counterexample: Any) -> PropertyResult:
    return PropertyResult(name=name, passed=False, detail=detail, counterexample=counterexample)


def _key(value: Any) -> Hashable:
    """A hashable stand-in for ``value`` (lists and dicts compare by repr)."""
    try:
        hash(value)
    except TypeError:
        return ("<unhashable>", type(value).__name__, repr(value))
    return value  # type: ignore[no-any-return]


def _as_list(value: Any, name: str) -> list[Any] | PropertyResult:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        return _fail(
            name, f"expected a sequence, got {type(value).__name__} {value!r}"[:200], value
        )
    return list(value)


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def permutation_of(output: Any, original: Iterable[Any]) -> PropertyResult:
    """``output`` holds exactly the elements of ``original``, each as often."""
    name = "permutation"
    lettered = isinstance(output, str) and isinstance(original, str)  # a word's letters
    out = list(output) if lettered else _as_list(output, name)
    if isinstance(out, PropertyResult):
        return out
    expected = list(original)
    have = Counter(_key(v) for v in out)
    want = Counter(_key(v) for v in expected)
    if have == want:
        return _ok(name, f"{len(out)} elements, same multiset as the input")
    missing = want - have
    extra = have - want
    if missing:
        element = next(iter(missing))
        return _fail(
            name,
            f"element {_short(element)} appears {have[element]}x in the output but "
            f"{want[element]}x in the input",
            {"element": element, "input_count": want[element], "output_count": have[element]},
        )
    element = next(iter(extra))
    return _fail(
        name,
        f"element {_short(element)} appears {have[element]}x in the output but "
        f"{want[element]}x in the input",
        {"element": element, "input_count": want[element], "output_count": have[element]},
    )


def subset_of(output: Any, population: Iterable[Any]) -> PropertyResult:
    """Every element of ``output`` is in ``population`` (repeats allowed).

    A single value (``choice``) is one element; ``None`` from an empty population
    chose nothing and holds.
    """
    name = "subset"
    pool = {_key(v) for v in population}
    if output is None and not pool:  # a chooser with nothing to choose from returns None
        return _ok(name, "no element returned from an empty population")
    scalar = isinstance(output, str | bytes) or not isinstance(output, Iterable)
    out = [output] if scalar else list(output)  # one element chosen: a member of the population
    for index, value in enumerate(out):
        if _key(value) not in pool:
            return _fail(
                name,
                f"{'the output' if scalar else f'output[{index}]'} = {_short(value)} "
                "is not in the population",
                {"index": index, "element": value},
            )
    return _ok(name, f"all {len(out)} elements come from the population")


def sample_without_replacement(
    output: Any, population: Iterable[Any], k: int | None = None
) -> PropertyResult:
    """``output`` draws from ``population`` without reuse, and has ``k`` items if given.

    An element that occurs twice in the population may occur twice in the
    sample, never more.
    """
    name = "sample"
    out = _as_list(output, name)
    if isinstance(out, PropertyResult):
        return out
    pool_list = list(population)
    if k is not None and len(out) != k:
        return _fail(
            name,
            f"expected {k} items, got {len(out)}",
            {"expected_size": k, "size": len(out)},
        )
    subset = subset_of(out, pool_list)
    if not subset.passed:
        return PropertyResult(name, False, subset.detail, subset.counterexample)
    have = Counter(_key(v) for v in out)
    available = Counter(_key(v) for v in pool_list)
    for element, count in have.items():
        if count > available[element]:
            return _fail(
                name,
                f"element {_short(element)} drawn {count}x but the population has it "
                f"{available[element]}x (drawn with replacement?)",
                {"element": element, "drawn": count, "available": available[element]},
            )
    return _ok(name, f"{len(out)} distinct draws from {len(pool_list)}")


def is_sorted(
    output: Any,
    *,
    key: Callable[[Any], Any] | None = None,
    reverse: bool = False,
    strict: bool = False,
) -> PropertyResult:
    """``output`` is in (non-)decreasing order; ``strict`` forbids equal neighbours."""
    name = "sorted"
    out = _as_list(output, name)
    if isinstance(out, PropertyResult):
        return out
    keyed = [key(v) if key else v for v in out]
    for index in range(len(keyed) - 1):
        a, b = keyed[index], keyed[index + 1]
        try:
            later, earlier = (a, b) if reverse else (b, a)
            bad = later < earlier or (strict and a == b)
        except TypeError as exc:
            return _fail(
                name,
                f"output[{index}] and output[{index + 1}] do not compare: {exc}",
                {"index": index, "pair": [out[index], out[index + 1]]},
            )
        if bad:
            order = "descending" if reverse else "ascending"
            return _fail(
                name,
                f"output[{index}] = {_short(out[index])} and output[{index + 1}] = "
                f"{_short(out[index + 1])} are not in {'strictly ' if strict else ''}{order} order",
                {"index": index, "pair": [out[index], out[index + 1]]},
            )
    return _ok(name, f"{len(out)} elements in order")


def within_bounds(
    output: Any, low: Any = None, high: Any = None, *, inclusive: bool = True
) -> PropertyResult:
    """Every value (or the single value) lies in ``[low, high]`` (``None`` = unbounded); the
    values of a grid (a list of rows: a random matrix) are its cells."""
    name = "bounds"
    single = isinstance(output, int | float) or not isinstance(output, Iterable)
    values = [output] if single else list(output)
    grid = not single and bool(values) and all(isinstance(row, list | tuple) for row in values)
    places: list[tuple[str, Any, Any]] = (
        [
            (f"output[{r}][{c}]", v, {"row": r, "column": c, "element": v})
            for r, row in enumerate(values)
            for c, v in enumerate(row)
        ]
        if grid
        else [
            ("value" if single else f"output[{i}]", v, v if single else {"index": i, "element": v})
            for i, v in enumerate(values)
        ]
    )
    brackets = "[]" if inclusive else "()"
    for where, value, counterexample in places:
        try:
            inside = _inside(value, low, high, inclusive)
        except TypeError as exc:
            return _fail(name, f"{_short(value)} does not compare with the bounds: {exc}", value)
        if not inside:
            return _fail(
                name,
                f"{where} = {_short(value)} is outside {brackets[0]}{low}, {high}{brackets[1]}",
                counterexample,
            )
    return _ok(name, f"{len(places)} {'cell' if grid else 'value'}(s) within [{low}, {high}]")


def _inside(value: Any, low: Any, high: Any, inclusive: bool) -> bool:
    below = low is not None and (value < low if inclusive else value <= low)
    above = high is not None and (value > high if inclusive else value >= high)
    return not (below or above)


def has_length(output: Any, n: int | None) -> PropertyResult:
    """``output`` has ``max(0, n)`` items: as many as a count asked for (none for a
    negative count, as ``range(n)`` gives); a string or bytes counts its characters (a
    password or token of ``n``); passes when there is no count to compare."""
    if n is None:
        return _ok("length", "no count given")
    items = list(output) if isinstance(output, str | bytes) else _as_list(output, "length")
    if isinstance(items, PropertyResult):
        return items
    want = max(0, n)
    if len(items) == want:
        return _ok("length")
    return _fail("length", f"expected {want} items, got {len(items)}", output)


def order_statistic(
    output: Any, population: Iterable[Any], k: int | None, *, base: int = 0, largest: bool = False
) -> PropertyResult:
    """``output`` is the ``k``-th smallest (or largest) element of ``population``, counting
    from ``base``; a ``k`` outside the population, or a population with repeats (where
    the k-th smallest reads two ways), leaves nothing to compare (passes)."""
    name = "order_statistic"
    ranked = list(population)
    if k is None or not 0 <= k - base < len(ranked):
        return _ok(name, f"k = {k} is outside a population of {len(ranked)}: nothing to compare")
    if len({repr(v) for v in ranked}) != len(ranked):  # with repeats the k-th reads two ways
        return _ok(name, "the population repeats a value: nothing to compare")
    try:
        ranked.sort(reverse=largest)
    except TypeError as exc:
        return _ok(name, f"the population does not sort ({exc}): nothing to compare")
    want = ranked[k - base]
    if output == want:
        return _ok(name, f"{_short(output)} is element {k} of the population in order")
    order = "largest" if largest else "smallest"
    count = "1-based" if base else "0-based"
    return _fail(
        name,
        f"expected the element {k} ({count}) {order}, {_short(want)}; got {_short(output)}",
        {"k": k, "expected": want, "got": output},
    )


def unique(output: Any, *, key: Callable[[Any], Any] | None = None) -> PropertyResult:
    """No two elements of ``output`` are equal (by ``key`` if given)."""
    name = "unique"
    out = list(output) if isinstance(output, str) else _as_list(output, name)  # a str: its chars
    if isinstance(out, PropertyResult):
        return out
    first_seen: dict[Hashable, int] = {}
    for index, value in enumerate(out):
        k = _key(key(value) if key else value)
        if k in first_seen:
            return _fail(
                name,
                f"output[{first_seen[k]}] and output[{index}] are both {_short(value)}",
                {"indices": [first_seen[k], index], "element": value},
            )
        first_seen[k] = index
    return _ok(name, f"{len(out)} distinct elements")


def _call_failure(name: str, what: str, exc: BaseException, value: Any) -> PropertyResult:
    return _fail(name, f"{what} raised {type(exc).__name__}: {exc}", value)


def idempotent(fn: Callable[[Any], Any], value: Any) -> PropertyResult:
    """Applying ``fn`` twice gives what applying it once gives: ``f(f(x)) == f(x)``."""
    name = "idempotent"
    try:
        once = fn(value)
    except Exception as exc:
        return _call_failure(name, f"f({_short(value)})", exc, value)
    try:
        twice = fn(once)
    except Exception as exc:
        return _call_failure(name, f"f(f({_short(value)}))", exc, value)
    if once != twice:
        return _fail(
            name,
            f"f(x) = {_short(once)} but f(f(x)) = {_short(twice)} for x = {_short(value)}",
            value,
        )
    return _ok(name, "f(f(x)) == f(x)")


def round_trip(
    encode: Callable[[Any], Any], decode: Callable[[Any], Any], value: Any
) -> PropertyResult:
    """Decoding what was encoded gives the value back: ``decode(encode(x)) == x``."""
    name = "round_trip"
    try:
        encoded = encode(value)
    except Exception as exc:
        return _call_failure(name, f"encode({_short(value)})", exc, value)
    try:
        decoded = decode(encoded)
    except Exception as exc:
        return _call_failure(name, f"decode({_short(encoded)})", exc, value)
    if decoded != value:
        return _fail(
            name,
            f"decode(encode(x)) = {_short(decoded)} != x = {_short(value)}",
            value,
        )
    return _ok(name, "decode(encode(x)) == x")
