"""Parameters that go together: the arguments of one call that must agree (issue 30).

Generated independently, related arguments make correct code look broken: a crossover
of two unrelated parents returns no tour, a population with one weight too few raises
``IndexError``, ``randomized_quicksort(A, p, r)`` with ``r`` past the end does too. So
inputs built for observation (:mod:`~automock.properties.observe`) and for the search
(:mod:`~automock.properties.hypothesis_glue`) are fitted to the names:

- :func:`parents`: two parents of one crossover (``p1``/``p2``, ``parent_1``/``parent_2``,
  ``mother``/``father``) hold the same distinct genes, the second in another order;
- :func:`weights_of`: a list of weights beside a list (``population`` and
  ``fitnesses``, ``items`` and ``weights``) has one positive weight per element;
- :func:`index_pair`: two ints beside a list named as the ends of a stretch of it
  (``p``/``r`` as in CLRS, ``lo``/``hi``, ``left``/``right``, ``start``/``end``, with or
  without an index suffix: ``start_ind``, ``lo_idx``) span the whole list: ``0`` and
  ``len - 1``, or ``len`` where the code reads its end as one past the last item
  (:mod:`~automock.properties.stretch`);
- :func:`length_of`: an int named as a list's length (``population`` and
  ``population_size``, ``items`` and ``n_items``) is that list's length.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = [
    "WEIGHT_NAMES",
    "fitted",
    "index_pair",
    "length_of",
    "parents",
    "ranked",
    "sums_to_one",
    "weights_of",
]

WEIGHT_NAMES = (
    "weights",
    "weight",
    "fitness",
    "fitnesses",
    "fitness_values",
    "probabilities",
    "probs",
    "scores",
)
# weights that are probabilities: they sum to 1 (a bisect of ``random()`` into their sums)
_PROBABILITY_NAMES = ("probabilities", "probs", "probability", "prob", "pmf", "distribution")


def sums_to_one(name: str) -> bool:
    """Does a weights parameter's name say its weights are probabilities (summing to 1)?"""
    return name.lower().endswith(_PROBABILITY_NAMES)


_COUPLES = (frozenset({"mother", "father"}), frozenset({"mom", "dad"}))
_ENDS = (
    ("p", "r"),
    ("lo", "hi"),
    ("low", "high"),
    ("left", "right"),
    ("start", "end"),
    ("begin", "end"),
    ("first", "last"),
    ("l", "r"),
)


def parents(names: Sequence[str]) -> tuple[int, int] | None:
    """The positions of two parameters named as the parents of one crossover."""
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    for i, j in pairs:
        a, b = names[i].lower(), names[j].lower()
        if frozenset({a, b}) in _COUPLES:
            return i, j
        stem_a, stem_b = a.rstrip("0123456789").rstrip("_"), b.rstrip("0123456789").rstrip("_")
        if stem_a == stem_b and stem_a and a != b and a[-1].isdigit() and b[-1].isdigit():
            return i, j
    return None


def weights_of(names: Sequence[str], lists: Sequence[int]) -> tuple[int, int] | None:
    """``(list, weights)``: the positions of a list and of the weights of its elements."""
    for w in lists:
        if names[w].lower().endswith(WEIGHT_NAMES):
            others = [i for i in lists if i != w]
            if others:
                return others[0], w
    return None


_INDEX_SUFFIXES = ("_index", "_ind", "_idx", "_pos", "index", "idx")


def _end_name(name: str) -> str:
    """``name`` less an index suffix: ``start_ind``, ``lo_idx``, ``leftIndex`` are ends too."""
    lowered = name.lower()
    for suffix in _INDEX_SUFFIXES:
        if lowered.endswith(suffix) and len(lowered) > len(suffix):
            return lowered[: -len(suffix)].rstrip("_")
    return lowered


def index_pair(names: Sequence[str], lists: Sequence[int]) -> tuple[int, int, int] | None:
    """``(list, low, high)``: a list and two parameters named as the ends of a stretch of it
    (an index suffix allowed: ``start_ind``/``end_ind``)."""
    if not lists:
        return None
    lowered = [_end_name(n) for n in names]
    for low, high in _ENDS:
        if low in lowered and high in lowered:
            return lists[0], lowered.index(low), lowered.index(high)
    return None


_LENGTH_SUFFIXES = ("_size", "_len", "_length", "_count")
_LENGTH_PREFIXES = ("len_", "n_", "num_", "size_", "number_of_")


def length_of(names: Sequence[str], lists: Sequence[int]) -> list[tuple[int, int]]:
    """``(list, length)`` pairs: the positions of a list and of a parameter named as its
    length (``population_size`` beside ``population``, ``n_items`` beside ``items``)."""
    lowered = [n.lower() for n in names]
    found = []
    for i in lists:
        stems = {lowered[i], lowered[i].rstrip("s")} - {""}
        spelled = {s + x for s in stems for x in _LENGTH_SUFFIXES}
        spelled |= {x + s for s in stems for x in _LENGTH_PREFIXES}
        found += [(i, j) for j, name in enumerate(lowered) if j != i and name in spelled]
    return found


_HEAVIEST = 1e9  # a weight fitted to a list: a billion such add up to a finite total


def fitted(
    args: tuple[Any, ...],
    names: Sequence[str],
    shuffle: Callable[[list[Any]], list[Any]],
    past_end: bool = False,
) -> tuple[Any, ...]:
    """``args`` fitted to the names: crossover parents as one tour of distinct genes, the
    second ``shuffle``d; weights to their list; a list's length to it; a stretch's ends to
    the whole list (its high end one past the last item when ``past_end``)."""
    row = list(args)
    couple = parents(names)
    if couple and all(isinstance(row[k], list) for k in couple):
        genes = list(dict.fromkeys(row[couple[0]]))  # distinct genes, as in a tour
        row[couple[0]], row[couple[1]] = genes, shuffle(list(genes))
    lists = [i for i, a in enumerate(row) if isinstance(a, list)]
    weighted = weights_of(names, lists)
    if weighted is not None:
        items, w = weighted
        # finite ones only: a fitness of inf (or nan) is no weight a wheel can be built from,
        # nor are two of 9e307, whose total is inf: each is held to a billion
        finite = [x for x in row[w] if isinstance(x, int | float) and math.isfinite(x)]
        given = [min(abs(x), _HEAVIEST) for x in finite]
        given = given or [1.0]
        row[w] = [float(given[i % len(given)]) + 1.0 for i in range(len(row[items]))]
    for items, at in length_of(names, lists):  # `population_size`: the population's length
        if type(row[at]) is int:
            row[at] = len(row[items])
    ends = index_pair(names, lists)
    if ends is not None:  # whatever the names alone guessed (`p` reads as a probability)
        items, low, high = ends
        row[low], row[high] = 0, len(row[items]) - (0 if past_end else 1)
    return tuple(row)


def ranked(args: tuple[Any, ...], names: Sequence[str], rank: Mapping[str, Any]) -> tuple[Any, ...]:
    """``args`` with a selection's rank (``rank``: ``{"k": name, "base": 0 or 1}``, the
    options of its ``order_statistic``) moved inside the list: a rank drawn anywhere is
    mostly outside a short list, an input the selection refuses, and the search then
    tries almost nothing the function is for."""
    name, base = rank.get("k"), int(rank.get("base", 0))
    if name not in names:
        return args
    row = list(args)
    at = names.index(name)
    items = next((a for a in row if isinstance(a, list)), None)
    if items and isinstance(row[at], int) and not isinstance(row[at], bool):
        row[at] = base + row[at] % len(items)
    return tuple(row)
