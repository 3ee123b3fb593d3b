"""Which output lines depend on the seed, and which property each such line keeps.

:func:`compare_outputs` lines up a program's stdout under several seeds line
by line (line *i* with line *i*): a line that is the same under every seed
can be asserted exactly; one that changes is *seed-dependent*, and an exact
assertion on it is wrong. For those, :func:`suggest` infers from the values
seen what does hold under every seed:

- ``permutation``: the same elements in a different order (a shuffle);
- ``sorted``: in ascending order under every seed, contents varying;
- ``subset``: as many elements each time, drawn from a larger pool (a sample; a
  line whose changing words are ids or timestamps, ``dg-3f2a`` or ``10:07``, is not);
- ``bounds``: one number each time; ``low``/``high`` are the extremes seen.

A line's elements are a Python literal list/tuple/set (``print(deck)``) or
its whitespace-separated words (``print(*deck)``), after any prefix common to
every seed (``hand: ...``).
"""

from __future__ import annotations

import ast
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from automock._serialize import JsonMixin

__all__ = ["SeedLine", "compare_outputs", "suggest"]

# a word mixing digits with letters or time/date punctuation, as the repr of a str
_ID_LIKE = re.compile(r"^'?(?=.*\d)(?=.*[A-Za-z:/()-]).+'?$")


@dataclass(frozen=True, slots=True)
class SeedLine(JsonMixin):
    """Line ``number`` (1-based) of stdout under each seed (``None``: that run printed fewer)."""

    number: int
    values: tuple[str | None, ...]
    seed_dependent: bool
    suggestions: tuple[str, ...] = ()
    args: dict[str, Any] = field(default_factory=dict)


def _elements(text: str) -> list[Any]:
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return _words(text)
    if isinstance(value, list | tuple):
        return list(value)
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    if not isinstance(value, str):
        return [value]
    return _words(text)


def _words(text: str) -> list[str]:
    """``b, a, c`` and ``b a c`` alike: words, without the separators that end them."""
    return [w for w in (word.strip(",;") for word in text.replace(",", " ").split()) if w]


def _number(items: Sequence[Any]) -> float | None:
    if len(items) != 1:
        return None
    value = items[0]
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _is_sorted(items: Sequence[Any]) -> bool:
    try:
        return all(a <= b for a, b in itertools.pairwise(items))
    except TypeError:
        return False


def suggest(values: Sequence[str]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """(property names, their arguments) that every one of ``values`` satisfies."""
    prefix = min(values, key=len, default="")
    for value in values:
        while not value.startswith(prefix):
            prefix = prefix[:-1]
    cut = max(prefix.rfind(" "), prefix.rfind(":"), prefix.rfind("="), -1) + 1
    seqs = [_elements(v[cut:]) for v in values]
    numbers = [_number(s) for s in seqs]
    if all(n is not None for n in numbers):
        found = [n for n in numbers if n is not None]
        return ("bounds",), {"low": min(found), "high": max(found)}
    keys = [Counter(repr(x) for x in s) for s in seqs]
    names: list[str] = []
    if len(seqs[0]) > 1 and all(k == keys[0] for k in keys):
        names.append("permutation")
    elif all(_is_sorted(s) for s in seqs) and all(len(s) > 1 for s in seqs):
        names.append("sorted")
    pool = set().union(*keys)
    # an id or a timestamp (``dg-3f2a``, ``10:07``) is new under every seed: no sample
    common: set[str] = set(keys[0]).intersection(*keys[1:])
    varying = pool - common
    stamped = any(_ID_LIKE.search(element) for element in varying)
    same_size = len({len(s) for s in seqs}) == 1
    if "permutation" not in names and same_size and len(seqs[0]) < len(pool) and not stamped:
        names.append("subset")
    return tuple(names), {}


def compare_outputs(outputs: Sequence[str]) -> tuple[SeedLine, ...]:
    """The stdout of one run per seed, compared line by line (see the module docstring)."""
    split = [text.splitlines() for text in outputs]
    count = max((len(lines) for lines in split), default=0)
    result = []
    for i in range(count):
        values = tuple(lines[i] if i < len(lines) else None for lines in split)
        dependent = len(set(values)) > 1
        names: tuple[str, ...] = ()
        args: dict[str, Any] = {}
        if dependent and all(v is not None for v in values):
            names, args = suggest([v for v in values if v is not None])
        result.append(SeedLine(i + 1, values, dependent, names, args))
    return tuple(result)
