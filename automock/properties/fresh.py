"""Fresh inputs like the tests' own: the same kinds and ranges, and small edits of them.

Hard-coding detection without a property (:mod:`automock.properties.lookup`)
needs inputs a real implementation answers variedly, so that a function
answering every one of them the same way stands out. Inputs drawn from the
type hints are mostly noise for such functions (a random string is almost
never a valid file name, a random int almost never a cube), so there are two
sources, both built only from the examples:

- *like* (:func:`strategy_like`, a Hypothesis strategy): values of the same kinds as the examples at each position, ints
  and floats within the examples' range, strings over their characters,
  collections as long as theirs;
- *neighbours* (:func:`neighbours`, a seeded list): one example with a small edit: a number moved by a few, negated,
  doubled or halved; a character or element dropped, repeated, swapped or
  edited, a sequence reversed or joined to another example's; arguments of one
  type swapped; all numbers scaled; or each argument from a different example.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from hypothesis.strategies import SearchStrategy

__all__ = ["neighbours", "strategy_like"]

_MAX_SIZE = 40  # longest generated string or list


def _bounds(seen: Sequence[Any], pad: Any) -> tuple[Any, Any]:
    low, high = min(seen), max(seen)
    if low == high:
        low, high = (max(low - pad, 0 * pad) if low >= 0 else low - pad), high + pad
    return low, high


def _like(values: Sequence[Any]) -> SearchStrategy[Any]:
    """Values of the same kinds as ``values``, within their ranges and sizes."""
    from hypothesis import strategies as st

    groups: dict[type, list[Any]] = {}
    for value in values:
        groups.setdefault(type(value), []).append(value)
    parts: list[SearchStrategy[Any]] = []
    for kind, seen in groups.items():
        if kind is bool:
            parts.append(st.booleans())
        elif kind is int:
            parts.append(st.integers(*_bounds(seen, 5)))
        elif kind is float:
            low, high = _bounds(seen, 1.0)
            parts.append(st.floats(low, high, allow_nan=False, allow_infinity=False))
        elif kind is str:
            chars = sorted(set("".join(seen))) or ["a", "b"]
            low, high = _sizes(seen)
            parts.append(st.text(alphabet=st.sampled_from(chars), min_size=low, max_size=high))
        elif kind in (list, tuple, set, frozenset):
            parts.append(_collection(kind, seen))
        elif kind is dict:
            low, high = _sizes(seen)
            keys = _like([k for d in seen for k in d] or ["a"])
            items = _like([v for d in seen for v in d.values()] or [0])
            parts.append(st.dictionaries(keys, items, min_size=low, max_size=high))
        elif kind is type(None):
            parts.append(st.none())
        else:
            parts.append(st.sampled_from(seen))
    return st.one_of(parts) if len(parts) > 1 else parts[0]


def _sizes(seen: Sequence[Any]) -> tuple[int, int]:
    sizes = [len(s) for s in seen]
    high = min(max(max(sizes), 1), _MAX_SIZE)
    return min(min(sizes), high), high


def _collection(kind: type, seen: Sequence[Any]) -> SearchStrategy[Any]:
    from hypothesis import strategies as st

    lengths = {len(s) for s in seen}
    if kind is tuple and len(lengths) == 1 and seen[0]:  # fixed-shape records
        return st.tuples(*[_like([s[i] for s in seen]) for i in range(len(seen[0]))])
    elements = [e for s in seen for e in s]
    inner = _like(elements) if elements else st.integers(0, 9)
    low, high = _sizes(seen)
    if kind in (set, frozenset):
        return st.sets(inner, min_size=0, max_size=high).map(kind)
    return st.lists(inner, min_size=low, max_size=high).map(kind)


def strategy_like(examples: Sequence[Sequence[Any]]) -> SearchStrategy[tuple[Any, ...]]:
    """Argument tuples like ``examples`` (of their most common arity)."""
    from hypothesis import strategies as st

    arities = [len(e) for e in examples]
    arity = max(set(arities), key=arities.count)
    rows = [tuple(e) for e in examples if len(e) == arity]
    return st.tuples(*[_like([row[i] for row in rows]) for i in range(arity)])


def _edit(rng: random.Random, value: Any, pool: Sequence[Any]) -> Any:
    """``value`` with one small edit; ``pool`` holds the other examples' values here."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        how = rng.choice(["shift", "negate", "double", "halve"])
        shifts = {"negate": -value, "double": value * 2, "halve": value // 2}
        return shifts.get(how, value + rng.choice([-3, -2, -1, 1, 2, 3]))
    if isinstance(value, float):
        return value + rng.uniform(-1.0, 1.0)
    if isinstance(value, str | list | tuple) and value:
        items = list(value)
        i, j = rng.randrange(len(items)), rng.randrange(len(items))
        how = rng.choice(["drop", "repeat", "swap", "edit", "reverse", "join"])
        if how == "drop":
            del items[i]
        elif how == "repeat":
            items.insert(i, items[i])
        elif how == "swap":
            items[i], items[j] = items[j], items[i]
        elif how == "edit" and not isinstance(value, str):
            items[i] = _edit(rng, items[i], items)
        elif how == "edit":
            items[i] = items[i].swapcase() if items[i].isalpha() else items[j]
        elif how == "join":  # two examples end to end: "()" + "(())"
            other = rng.choice([v for v in pool if type(v) is type(value)] or [value])
            items += list(other)
        else:
            items.reverse()
        return "".join(items) if isinstance(value, str) else type(value)(items)
    return value


def neighbours(examples: Sequence[Sequence[Any]], count: int, seed: int) -> list[tuple[Any, ...]]:
    """Up to ``count`` distinct argument tuples near ``examples``, none of them an example.

    Each is one example with one argument edited, or (several arguments) the
    arguments recombined from different examples, two of one type swapped,
    or every number scaled by 2 or 3. Drawn with ``random.Random(seed)``.
    """
    rows = [tuple(e) for e in examples if len(e) == len(examples[0])]
    arity = len(rows[0]) if rows else 0
    rng = random.Random(seed)
    found: list[tuple[Any, ...]] = []
    for _ in range(count * 5):
        if len(found) >= count or not arity:
            break
        row = list(rng.choice(rows))
        how = rng.choice(["edit", "edit", "edit", "mix", "swap", "scale"])
        i, j = rng.randrange(arity), rng.randrange(arity)
        if how == "mix" and arity > 1:
            row = [rng.choice(rows)[k] for k in range(arity)]
        elif how == "swap" and arity > 1 and type(row[i]) is type(row[j]):
            row[i], row[j] = row[j], row[i]
        elif how == "scale":
            factor = rng.choice([2, 3])
            row = [v * factor if type(v) in (int, float) else v for v in row]
        else:
            row[i] = _edit(rng, row[i], [r[i] for r in rows])
        candidate = tuple(row)
        if candidate not in found and candidate not in rows:
            found.append(candidate)
    return found
