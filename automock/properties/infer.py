"""Which properties apply to a function: from the plan, else from its name.

The drafter may write ``PropertySpec`` entries into the plan
(``{"function": "draw", "property": "sample", "args": {"k": "k"}}``); those
win. Otherwise the function's name decides: ``shuffle`` -> permutation and
uniform, ``swap``/``sattolo``/``derangement`` -> permutation (never a uniform
one), ``sort`` -> sorted and permutation, a tour crossover (``ox``, ``pmx``,
``order_crossover``, ``cycle_crossover``) -> permutation (another crossover:
nothing), a tour mutation (``inversion_mutation``, ``insertion``/``displacement``, or a
``mutate`` whose docstring says it swaps, inverts or scrambles) or a 2-opt,
3-opt or or-opt move (``two_opt``, ``twoOpt``) -> permutation, ``sample``/``sampling``/``reservoir``/``draw``/``pick`` -> sample (not when the name says ``replacement``/``bootstrap``;
its size ``k`` the one ``int`` parameter, else an untyped one named ``k``,
``sample_size``...), ``dedup``/``unique`` -> unique, ``normalize``/``canonical`` ->
idempotent, ``encode``/``dumps``/``to_x`` -> round_trip with the inverse
found by name (``decode``/``loads``/``from_x``) in the same module; a function of a
deck of cards (``deck``, ``cards``) and a count only -> sample of that count (cards dealt
are not put back); a bootstrap (``bootstrap``, ``resample``, with no other nouns) -> subset. A name that says
the permutation is cyclic (``sattolo``, ``cycle``, ``derangement``) or a mutation drops
``uniform``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from automock._serialize import JsonMixin
from automock.errors import InputError
from automock.plan.model import PropertySpec
from automock.properties._signature import name_tokens, signature_of
from automock.properties.runner import canonical_property

__all__ = [
    "AppliedProperty",
    "infer_properties",
    "meant_uneven",
    "name_tokens",
    "resolve_options",
]

_NAME_RULES: tuple[tuple[frozenset[str], tuple[str, ...]], ...] = (
    (
        frozenset({"shuffle", "shuffled", "permute", "scramble", "mix", "mixed"})
        | {"melanger", "mezclar", "barajar", "embaralhar", "mischen"},
        ("permutation", "uniform"),
    ),
    (frozenset({"swap", "sattolo", "derangement", "derange"}), ("permutation",)),
    (frozenset({"sort", "sorted", "order", "ordered", "rank"}), ("sorted", "permutation")),
    # a crossover of two tours (order, partially mapped, cycle crossover) is a tour again
    (frozenset({"ox", "pmx", "cx", "ox1"}), ("permutation",)),
    (
        frozenset({"sample", "sampling", "reservoir", "draw", "pick", "choose", "select", "deal"}),
        ("sample",),
    ),
    (frozenset({"unique", "dedup", "dedupe", "deduplicate", "distinct"}), ("unique", "subset")),
    (
        frozenset(
            {"normalize", "normalise", "canonical", "canonicalize", "clean", "strip", "slugify"}
        ),
        ("idempotent",),
    ),
)
# a cyclic shuffle (Sattolo's algorithm), a derangement or a genetic-algorithm mutation (a
# scramble of a stretch) is a permutation, never a uniform one; a weighted, roulette or
# tournament pick is a choice, never a fair one
_NOT_UNIFORM = frozenset(
    {"sattolo", "cycle", "cyclic", "derangement", "derange", "mutation", "mutate"}
    | {"weighted", "weight", "weights", "roulette", "tournament", "fittest", "best"}
)
_TOUR_CROSSOVERS = frozenset({"ox", "pmx", "cx", "ox1", "order", "cycle", "partially", "mapped"})
# a mutation that reverses a stretch of a tour, or moves (shifts, rotates) one city or a
# stretch elsewhere, is a tour again (a bit flip or a reset of a gene is not, and says none
# of these words)
_TOUR_MUTATIONS = frozenset(
    {"inversion", "insertion", "displacement", "reversal", "shift", "rotation", "rotate"}
)
# ... or whose docstring says it moves genes about (swaps, inverts, scrambles)
_REARRANGING = frozenset({"swap", "swaps", "swapping", "exchange", "exchanges", "exchanging"})
_REARRANGING |= {"invert", "inverts", "inverting", "inversion", "reverse", "reverses"}
_REARRANGING |= {"reversing", "reversal", "scramble", "scrambles", "scrambling", "shuffle"}
_REARRANGING |= {"shuffles", "shuffling"}
# a 2-opt, 3-opt or or-opt move of local search reverses or moves stretches of a tour
_K_OPT = frozenset({"two", "three", "or", "2", "3"})
_K_OPT_WORDS = frozenset({"2opt", "3opt", "twoopt", "threeopt", "oropt"})
# a draw said to put back what it draws is no sample without replacement
_WITH_REPLACEMENT = frozenset({"replacement", "replace", "bootstrap", "choices", "resample"})
# a bootstrap (resample) of a list draws from it; a name with other words (bootstrap_means)
# may return anything computed from the draws
_RESAMPLES = frozenset({"bootstrap", "resample", "resampling"})
_RESAMPLE_NAME = _RESAMPLES | {"sample", "samples", "with", "replacement", "random", "get", "make"}
_SIZE_NAMES = ("k", "n_samples", "num_samples", "sample_size")
# cards are dealt from a deck, never put back: a draw of a count of them is a sample
_DECKS = frozenset({"deck", "cards", "shoe"})
_INVERSES = (
    ("encode", "decode"),
    ("serialize", "deserialize"),
    ("serialise", "deserialise"),
    ("dumps", "loads"),
    ("dump", "load"),
    ("compress", "decompress"),
    ("encrypt", "decrypt"),
    ("pack", "unpack"),
    ("quote", "unquote"),
    ("escape", "unescape"),
)


@dataclass(frozen=True, slots=True)
class AppliedProperty(JsonMixin):
    """A property to check on one function, with its options and where it came from."""

    property: str
    options: Mapping[str, Any] = field(default_factory=dict)
    source: str = "name"  # "plan", "name", "flag" or "inferred" (from observed behaviour)
    evidence: str = ""  # inferred: what was observed


def _inverse_name(name: str, namespace: Mapping[str, Any]) -> str | None:
    for forward, backward in _INVERSES:
        if forward in name and not name.startswith(backward):
            candidate = name.replace(forward, backward, 1)
            if callable(namespace.get(candidate)):
                return candidate
    if name.startswith("to_"):
        candidate = "from_" + name[3:]
        if callable(namespace.get(candidate)):
            return candidate
    return None


def _int_parameter(fn: Callable[..., Any]) -> str | None:
    signature = signature_of(fn)
    if signature is None:
        return None
    params = list(signature.parameters.values())
    ints = [p.name for p in params if p.annotation in (int, "int")]
    if len(ints) == 1:
        return ints[0]
    untyped = [p.name for p in params if p.annotation is inspect.Parameter.empty]
    return next((n for n in _SIZE_NAMES if n in untyped), None)  # `k`, by its usual name


def _dealt_count(fn: Callable[..., Any]) -> str | None:
    """The count parameter of a function of a deck of cards and a count only (``deal(deck,
    num)``): the number of cards dealt from it."""
    signature = signature_of(fn)
    params = [] if signature is None else list(signature.parameters)
    if len(params) != 2 or not any(p.lower() in _DECKS for p in params):
        return None
    return next(p for p in params if p.lower() not in _DECKS)


def _rearranges(fn: Callable[..., Any]) -> bool:
    """Does ``fn``'s docstring say it moves items about ("by inverting a segment", "swap
    two cities"), as a tour's mutation does?"""
    return bool(_REARRANGING & set(re.findall(r"[a-z]+", (inspect.getdoc(fn) or "").lower())))


def infer_properties(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    specs: Sequence[PropertySpec] = (),
    namespace: Mapping[str, Any] | None = None,
) -> tuple[AppliedProperty, ...]:
    """The properties that apply to ``fn``: the plan's specs for it, else name-based guesses."""
    fname = str(name or getattr(fn, "__name__", ""))
    planned = [s for s in specs if s.function in (fname, fname.rsplit(".", 1)[-1])]
    if planned:
        return tuple(
            AppliedProperty(canonical_property(s.property), dict(s.args), "plan") for s in planned
        )
    names: list[str] = []
    options: dict[str, dict[str, Any]] = {}
    tokens = set(name_tokens(fname))
    if any(t.endswith("sort") for t in tokens):  # quicksort, bogosort, mergesort: one word
        tokens.add("sort")
    if any(t.startswith("shuf") for t in tokens):  # shufflelist, shuffleit, a `shufle` typo
        tokens.add("shuffle")
    for words, props in _NAME_RULES:
        if tokens & words:
            names.extend(p for p in props if p not in names)
    if "crossover" in tokens:  # `order_crossover` orders nothing: its child is a tour
        names = ["permutation"] if tokens & _TOUR_CROSSOVERS else []
    mutation = tokens & {"mutation", "mutate"}
    if mutation and (tokens & _TOUR_MUTATIONS or _rearranges(fn)) and "permutation" not in names:
        names.append("permutation")
    k_opt = tokens & _K_OPT_WORDS or ("opt" in tokens and tokens & _K_OPT)
    if k_opt and "permutation" not in names:
        names.append("permutation")
    if tokens & _WITH_REPLACEMENT:
        names = [n for n in names if n != "sample"]
    if tokens & _RESAMPLES and tokens <= _RESAMPLE_NAME and "subset" not in names:
        names.append("subset")  # a bootstrap resample draws from its data, nothing else
    if tokens & _NOT_UNIFORM:
        names = [n for n in names if n != "uniform"]
    if "sample" in names:
        k = _int_parameter(fn)
        if k:
            options["sample"] = {"k": k}
    dealt = _dealt_count(fn)
    if dealt and not tokens & _WITH_REPLACEMENT:
        names += [] if "sample" in names else ["sample"]
        options.setdefault("sample", {"k": dealt})
    inverse = _inverse_name(fname, namespace or {})
    if inverse and "round_trip" not in names:
        names.append("round_trip")
        options["round_trip"] = {"inverse": inverse}
    return tuple(AppliedProperty(n, options.get(n, {}), "name") for n in names)


def meant_uneven(name: str) -> bool:
    """Does the name say its randomness is not meant to be uniform (see ``_NOT_UNIFORM``)?"""
    return bool(set(name_tokens(name)) & _NOT_UNIFORM)


def resolve_options(options: Mapping[str, Any], namespace: Mapping[str, Any]) -> dict[str, Any]:
    """Turn an ``inverse`` given by name into the function it names."""
    resolved = dict(options)
    inverse = resolved.get("inverse")
    if isinstance(inverse, str):
        target = namespace.get(inverse)
        if not callable(target):
            raise InputError(
                f"round_trip inverse {inverse!r} is not a function in the module; "
                "name a function defined next to the one checked"
            )
        resolved["inverse"] = target
    return resolved
