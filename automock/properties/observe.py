"""Run a function on small inputs under several seeds and keep what it did (issue 30).

The first half of inference from behaviour: :func:`observe` builds inputs from
the parameters' hints (or their names, or the example inputs of the tests),
calls the function on each under each seed (seeded, under a time bound, as
:mod:`automock.properties.bounded` does for a check), and records every
:class:`Observation`. An input the function refuses on purpose is outside its
domain (:func:`~automock.properties.runner.rejected`); a function whose
``None`` return went with a changed sequence argument is in place, and the
argument is its output on every call (recognised by what changed, not by an
annotation). A function with no parameters runs once per seed, many seeds.
"""

from __future__ import annotations

import copy
import inspect
import random
import time
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from automock.errors import CallTimeout
from automock.properties._signature import driven_parameters, name_tokens, signature_of, type_hints
from automock.properties.assumed import broken_assumption
from automock.properties.bounded import DEFAULT_CALL_SECONDS, bounded, call_seed
from automock.properties.runner import materialized, rejected
from automock.properties.stretch import past_end
from automock.properties.together import fitted, parents
from automock.properties.workload import lightened

__all__ = ["Observation", "Observations", "ignores_lists", "observe", "sample_inputs"]

_SEQUENCE_WORDS = frozenset(
    [
        "xs",
        "items",
        "seq",
        "sequence",
        "lst",
        "list",
        "arr",
        "array",
        "data",
        "deck",
        "cards",
        "values",
        "elements",
        "population",
        "pool",
        "nums",
        "numbers",
        "collection",
        "iterable",
        "a",
        "l",
        "s",
        "stream",
        "ind",
        "individual",
        "chromosome",
        "genome",
        "tour",
        "route",
        "perm",
        "parent",
        # the same words in the languages real code is written in
        "liste",
        "lista",
        "tableau",
        "arreglo",
        "vector",
        "vetor",
        "vettore",
        "elementos",
        "elementi",
        "numeros",
        "numeri",
        "datos",
        "mazo",
        "baraja",
    ]
)
_SIZE_WORDS = frozenset(
    [
        "k",
        "n",
        "size",
        "count",
        "length",
        "num",
        "amount",
        "m",
        "r",
        "interval",
        "step",
        "dice",
        "die",
        "sides",
        "faces",
        "trials",
        "times",
        "iterations",
        "rounds",
        "anzahl",  # German, Spanish, Portuguese: a count; how many times
        "cantidad",
        "quantidade",
        "veces",
        "vezes",
    ]
)
_INDEX_WORDS = frozenset(["index", "idx", "pos", "position", "rank", "nth", "kth", "i"])
_TEXT_WORDS = frozenset(
    {"string", "text", "word", "str", "sentence", "phrase", "txt", "mot", "palabra", "cadena"}
)
_PROBABILITY_WORDS = frozenset(["p", "prob", "probability", "rate", "chance", "fraction", "frac"])
# ... and as a word of a longer name (`mutation_rate`, `probabilidad_cruza`, `taxa_mutacao`)
_CHANCE_WORDS = frozenset({"rate", "prob", "probability", "probabilidad", "probabilidade"})
_CHANCE_WORDS |= {"probabilita", "probabilité", "probabilite", "tasa", "taxa", "chance"}
_SEQUENCE_ENDINGS = ("list", "array", "stream", "seq", "sequence")  # populationList, big_stream


@dataclass(frozen=True, slots=True)
class Observation:
    """One call: its arguments, the seed, what came out (``None`` if it raised)."""

    args: tuple[Any, ...]
    seed: int
    output: Any
    raised: str = ""  # "rejected", "error: <type>", "timeout"


@dataclass(frozen=True, slots=True)
class Observations:
    """Every call of :func:`observe`; ``in_place`` when the output is the mutated argument."""

    parameters: tuple[str, ...]
    calls: tuple[Observation, ...]
    in_place: bool
    slowest: float = 0.0  # CPU seconds of the costliest input (its cheapest seed) that finished

    @property
    def accepted(self) -> tuple[Observation, ...]:
        return tuple(o for o in self.calls if not o.raised)

    @property
    def takes_lists(self) -> bool:
        """Was any call given a list or tuple argument?"""
        return any(isinstance(a, list | tuple) for o in self.calls for a in o.args)


def ignores_lists(calls: Sequence[Observation]) -> bool:
    """Did no item of a list argument ever come out, over ``calls`` that returned items?
    (``deal_hand(players)`` deals from a deck of its own: it draws nothing from its list.)"""
    drawn = [
        (
            {repr(x) for a in o.args if isinstance(a, list | tuple) for x in a},
            {repr(x) for x in o.output} if isinstance(o.output, list | tuple) else set(),
        )
        for o in calls
    ]
    drawn = [(given, out) for given, out in drawn if given and out]
    return bool(drawn) and not any(given & out for given, out in drawn)


def _kind(param: inspect.Parameter, hint: Any) -> str:
    origin = typing.get_origin(hint) or hint
    if hint is not None and hint is not inspect.Parameter.empty:
        if origin in (int,):
            return "int"
        if origin in (float,):
            return "float"
        if origin in (str,):
            return "str"
        if isinstance(origin, type) and issubclass(origin, list | tuple | Sequence):
            return "list"
        if str(origin).startswith(("collections.abc.", "typing.")):
            return "list"
    name = param.name.lower()
    if (
        name in _SIZE_WORDS
        or name.startswith(("num_", "n_", "number_of_"))
        or name.endswith("size")
    ):
        return "int"
    if name in _INDEX_WORDS or name.endswith(
        ("_index", "_idx", "_ind", "_pos", "_position", "_rank")
    ):
        return "int"  # a position in the list (`item_index`, `start_ind`), not a list
    first, _, rest = name.partition("_")
    if first in ("i", "k", "idx", "index", "pos", "nth", "kth") and rest and rest[-1] != "s":
        return "int"  # `i_order_to_find`, `k_smallest`: an index or a count named first
    if name in _TEXT_WORDS:
        return "str"  # `shuffle_word(word)`, `scramble(text)`: the characters are the items
    if name in _PROBABILITY_WORDS or set(name_tokens(name)) & _CHANCE_WORDS:
        return "probability"
    if name in ("low", "lo", "min", "start", "a_min", "lower", "first", "begin"):
        return "int"
    if name in ("high", "hi", "max", "stop", "end", "upper", "last"):
        return "int_high"
    if name in _SEQUENCE_WORDS or name.endswith(("s", *_SEQUENCE_ENDINGS)):
        return "list"
    if name.rstrip("0123456789_") in ("parent", "p") and name[-1].isdigit():  # p1, parent_2
        return "list"
    return "unknown"


def _reordered(rng: random.Random) -> Callable[[list[Any]], list[Any]]:
    """A second parent's genes: the first's, in an order ``rng`` draws."""
    return lambda genes: rng.sample(genes, len(genes))


def _parameters(fn: Callable[..., Any]) -> list[tuple[inspect.Parameter, str]]:
    if signature_of(fn) is None:
        raise TypeError(f"cannot read the signature of {fn!r}")
    hints = type_hints(fn)
    params = driven_parameters(fn)
    couple = parents([p.name for p in params])  # `padre1`, `padre2`: a crossover's two lists
    return [
        (
            p,
            "list"
            if couple and i in couple and p.name not in hints
            else _kind(p, hints.get(p.name)),
        )
        for i, p in enumerate(params)
    ]


def sample_inputs(
    fn: Callable[..., Any],
    count: int = 24,
    *,
    lists_as_ints: str = "",
    unknown_as: str = "list",
) -> list[tuple[Any, ...]]:
    """Small argument tuples for ``fn``'s required parameters.

    ``lists_as_ints``: ``"later"``, a plural name after the first list (``winners``) is a
    count; ``"all"``, every plural is (``darts(throws)``).
    ``unknown_as``: the kind of a parameter neither its hint nor its name tells (``x``):
    a list first (what a randomized function mostly takes), an ``int`` on a retry, or
    ``"unknown"`` for no inputs at all.
    """
    params = [(p, unknown_as if kind == "unknown" else kind) for p, kind in _parameters(fn)]
    if lists_as_ints:
        lists = [i for i, (_, kind) in enumerate(params) if kind == "list"]
        counts = lists if lists_as_ints == "all" else lists[1:]
        params = [(p, "int" if i in counts else kind) for i, (p, kind) in enumerate(params)]
    if any(kind == "unknown" for _, kind in params):
        return []
    rng = random.Random(20260)  # our own generator: inputs never depend on the seed checked
    beyond = past_end(fn)
    inputs: list[tuple[Any, ...]] = []
    for index in range(count if params else 1):
        size = index % 9
        row: list[Any] = []
        for position, (_, kind) in enumerate(params):
            if kind == "list":
                items = list(range(size)) if index % 3 else [rng.randrange(5) for _ in range(size)]
                rng.shuffle(items)
                row.append(items)
            elif kind == "int":
                # every count 0..5 on odd calls, 1..4 on even ones (both parities: a walk of
                # odd steps only never ends at 0); two counts of one call differ (dice, sides)
                turn = index // 2 + 3 * position
                row.append(turn % 6 if index % 2 else 1 + turn % 4)
            elif kind == "int_high":
                row.append(row[-1] + 1 + index % 7 if row and isinstance(row[-1], int) else 6)
            elif kind == "float":
                row.append(float(index % 5))
            elif kind == "probability":
                row.append((index % 5) / 4)
            else:
                row.append("".join(rng.choice("abcde") for _ in range(size)))
        names = [p.name for p, _ in params]
        inputs.append(fitted(tuple(row), names, _reordered(rng), beyond))
    return inputs


# each input's cheapest finished call in the current observe(), in CPU seconds: the cheapest
# of its seeds, so a pause that lands on one call (a full garbage collection in a large
# process, a first call's lazy imports) does not make the input look costly
_COSTS: dict[str, float] = {}


def _call(fn: Callable[..., Any], args: tuple[Any, ...], seed: int, seconds: float) -> Observation:
    if broken_assumption(fn, args) is not None:  # outside what its docstring assumes
        return Observation(args, seed, None, "rejected")
    copied = copy.deepcopy(list(args))
    started = time.process_time()  # CPU time: the runtime virtualizes the wall and monotonic clocks
    try:
        output = bounded(
            lambda: materialized(fn(*copied)), seed=call_seed(seed, args), seconds=seconds
        )
        spent, key = time.process_time() - started, repr(args)
        _COSTS[key] = min(_COSTS.get(key, spent), spent)
    except CallTimeout:
        return Observation(args, seed, None, "timeout")
    except Exception as exc:
        kind = "rejected" if rejected(exc, fn) else f"error: {type(exc).__name__}"
        return Observation(args, seed, None, kind)
    if output is None:
        changed = [new for old, new in zip(args, copied, strict=True) if new != old]
        if changed:
            return Observation(args, seed, _InPlace(changed[0]), "")
    return Observation(args, seed, output, "")


def observe(
    fn: Callable[..., Any],
    *,
    seeds: Sequence[int] = (0, 1, 2),
    examples: Sequence[Sequence[Any]] = (),
    call_seconds: float = DEFAULT_CALL_SECONDS,
) -> Observations:
    """Call ``fn`` on sample inputs (and ``examples``) once per seed; see the module docstring.
    A workload default (``n_samples=1_000_000``) is lowered first
    (:func:`~automock.properties.workload.lightened`)."""
    _COSTS.clear()
    fn, _ = lightened(fn)
    inputs = [tuple(e) for e in examples] + sample_inputs(fn)
    params = tuple(p.name for p, _ in _parameters(fn))
    if not params:
        seeds = tuple(range(60))
    calls = [_call(fn, args, seed, call_seconds) for args in inputs for seed in seeds]
    retries = (  # every guess refused: a plural may be a count, an unknown `x` a number
        sample_inputs(fn, lists_as_ints="later"),
        sample_inputs(fn, unknown_as="int"),
        sample_inputs(fn, lists_as_ints="all"),
    )
    for retry in retries:
        if not (calls and _refused(calls)):
            break
        if retry != inputs:
            tried = [_call(fn, args, seed, call_seconds) for args in retry for seed in seeds]
            calls = tried if _taken(tried) > _taken(calls) else calls
    marked = any(_marked(c.output) for c in calls)
    in_place = marked and all(c.output is None or _marked(c.output) for c in calls if not c.raised)
    fixed = []
    for c in calls:
        output = c.output
        if _marked(output):  # a None beside values it returned is a None, whatever it changed
            output = output.value if in_place else None
        elif in_place and output is None:  # in place, the argument did not change this time
            output = next((a for a in c.args if isinstance(a, list)), None)
        fixed.append(Observation(c.args, c.seed, output, c.raised))
    return Observations(params, tuple(fixed), in_place, max(_COSTS.values(), default=0.0))


def _taken(calls: Sequence[Observation]) -> int:
    return sum(1 for c in calls if not c.raised)


def _refused(calls: Sequence[Observation]) -> bool:
    """Were most calls refused: every guess of a kind wrong, or right only where the argument
    went unread (``throw(n, d)`` given a list for ``d`` answers ``n = 0`` alone)?"""
    return 2 * _taken(calls) < len(calls)


class _InPlace:
    """The output of a call that returned ``None`` after changing this argument."""

    def __init__(self, value: Any) -> None:
        self.value = value


def _marked(output: Any) -> bool:
    return isinstance(output, _InPlace)
