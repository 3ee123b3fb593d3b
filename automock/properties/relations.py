"""Likely invariants: the input/output relations that held on every observation (issue 30).

:func:`relations` takes :class:`~automock.properties.observe.Observations` and
returns each relation that held on every accepted call, with how many calls
made it non-trivial (a sort of a one-element list proves nothing): permutation
of the sequence argument, sub-multiset, subset, one element of it (``member``), length equal / ``k`` /
``min(k, len)``, sorted, unique, the k-th smallest or largest of it (``order_statistic``), numbers within the input's range, within
parameter-relative bounds (``low``/``high`` naming parameters) or fixed bounds,
idempotent, whether the output varies with the seed, and whether a permutation
mixes like a uniform shuffle (``mixes``: about one element stays in place per
call, the mean for a uniform permutation of any length; a cyclic shuffle leaves
none in place, a mutation that swaps two or scrambles a stretch leaves most).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from automock.properties.fixed_bounds import fixed_bounds
from automock.properties.items import as_sequence, numbers_in
from automock.properties.observe import Observation, Observations

__all__ = ["Relation", "drawn_back", "order_agreement", "relations"]


@dataclass(frozen=True, slots=True)
class Relation:
    """A relation that held on ``support`` non-trivial observations out of ``seen``."""

    name: str
    support: int
    seen: int
    options: dict[str, Any] = field(default_factory=dict)


def _key(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _source(o: Observation) -> list[Any] | None:
    return next((list(a) for a in o.args if isinstance(a, list | tuple)), None)


def drawn_back(observed: Observations) -> bool:
    """Did a call return more items than its sequence argument holds, every one of them from
    it? Only a draw that puts back what it draws can (``draw([x], 2) == [x, x]``): a sample
    without replacement never returns more than it was given."""
    for o in observed.accepted:
        src, out = _source(o), as_sequence(o.output)
        longer = bool(src) and out is not None and len(out) > len(src or ())
        if longer and set(map(_key, out or ())) <= set(map(_key, src or ())):
            return True
    return False


def _members(o: Observation, values: list[float] | None) -> bool:
    items = _source(o)
    source = _numbers(items) if items else None
    return source is not None and values is not None and all(x in source for x in values)


def _ints(o: Observation, params: tuple[str, ...]) -> dict[str, int]:
    return {n: a for n, a in zip(params, o.args, strict=False) if type(a) is int}


def _numbers(value: Any) -> list[float] | None:
    return numbers_in(value) or None  # an empty output says nothing about values


def _count(
    observations: Iterable[Observation], holds: Callable[[Observation], bool | None]
) -> tuple[int, bool]:
    """(non-trivial observations, held on all): ``holds`` gives None when it says nothing."""
    support = 0
    for o in observations:
        verdict = holds(o)
        if verdict is None:
            continue
        if not verdict:
            return support, False
        support += 1
    return support, True


def _shape_relations(obs: tuple[Observation, ...], params: tuple[str, ...]) -> list[Relation]:
    def in_out(o: Observation) -> tuple[list[Any], list[Any]] | None:
        src, out = _source(o), as_sequence(o.output)
        return None if src is None or out is None else (src, out)

    def counts(o: Observation) -> tuple[Counter[Any], Counter[Any]] | None:
        pair = in_out(o)
        if pair is None:
            return None
        return Counter(map(_key, pair[0])), Counter(map(_key, pair[1]))

    def perm(o: Observation) -> bool | None:
        c = counts(o)
        return None if c is None or sum(c[0].values()) < 2 else c[0] == c[1]

    def submultiset(o: Observation) -> bool | None:
        c = counts(o)
        return None if c is None or not c[1] else all(c[0][k] >= v for k, v in c[1].items())

    def subset(o: Observation) -> bool | None:
        c = counts(o)
        return None if c is None or not c[1] else set(c[1]) <= set(c[0])

    def ordered(o: Observation) -> bool | None:
        out = as_sequence(o.output)
        if out is None or len(out) < 2:
            return None
        try:
            return all(a <= b for a, b in itertools.pairwise(out))
        except TypeError:
            return False

    def distinct(o: Observation) -> bool | None:
        # a str: its characters
        out = list(o.output) if isinstance(o.output, str) else as_sequence(o.output)
        return None if out is None or len(out) < 2 else len(set(map(_key, out))) == len(out)

    def member(o: Observation) -> bool | None:  # one element chosen from the sequence argument
        src = _source(o)
        if src is None or o.output is None or as_sequence(o.output) is not None:
            return None
        return _key(o.output) in set(map(_key, src))

    found = []
    for name, holds in (
        ("permutation", perm),
        ("submultiset", submultiset),
        ("subset", subset),
        ("sorted", ordered),
        ("unique", distinct),
        ("member", member),
    ):
        support, ok = _count(obs, holds)
        lucky = (name == "sorted" and not _beyond_luck(obs)) or (
            name == "unique" and (_record(obs) or _distinct_by_luck(obs))
        )
        if ok and support and not lucky:
            found.append(Relation(name, support, len(obs)))
    found += _length_relations(obs, params, in_out)
    return found


def _record(obs: tuple[Observation, ...]) -> bool:
    """Is every output a tuple of one fixed length, whatever the input: a record of separate
    quantities (``return heads / n, tails / n``), not a collection of draws? Its fields
    differing says nothing of the function (``unique`` is not proposed for it)."""
    lengths = {len(o.output) if isinstance(o.output, tuple) else -1 for o in obs}
    return len(obs) > 1 and len(lengths) == 1 and -1 not in lengths


def _different(obs: tuple[Observation, ...]) -> list[Any]:
    """Each different output once: repeats of one call (same input, same output) count once."""
    return list({(repr(o.args), repr(o.output)): o.output for o in obs}.values())


def _distinct_by_luck(obs: tuple[Observation, ...]) -> bool:
    """Could draws with replacement have come out without a repeat this often (1 in 1000
    or likelier)? An id of 4 characters from 36 has no repeat 84% of the time, so short
    ids that never repeated one say nothing of ``unique``. Each different output of ``n``
    items from the ``m`` values seen in all outputs counts ``prod(1 - i/m, i < n)``."""
    items = [list(x) if isinstance(x, str) else as_sequence(x) or [] for x in _different(obs)]
    seen = len({_key(v) for each in items for v in each})
    chance = 1.0
    for each in items:
        for i in range(len(each)):
            chance *= max(0.0, 1 - i / seen)
        if chance < 1e-3:
            return False
    return True


def _beyond_luck(obs: tuple[Observation, ...]) -> bool:
    """Were the sorted outputs seen too many to be sorted by chance (below 1 in 1000)?

    A random draw of two comes out sorted half the time: ``sorted`` held on 30 calls of
    ``random_subset(3, 2)`` that gave 6 different outputs is luck, not a relation. Each
    different sorted output of ``m`` distinct values counts ``1 / m!``; repeats of one call
    (the same input under the same seed) count once.
    """
    chance = 1.0
    for output in _different(obs):
        values = as_sequence(output) or []
        chance /= math.factorial(min(len({repr(v) for v in values}), 20))
        if chance < 1e-3:
            return True
    return False


def _length_relations(
    obs: tuple[Observation, ...],
    params: tuple[str, ...],
    in_out: Callable[[Observation], tuple[list[Any], list[Any]] | None],
) -> list[Relation]:
    found = []
    for name in params:

        def is_k(o: Observation, name: str = name) -> bool | None:
            pair, k = in_out(o), _ints(o, params).get(name)
            return (
                None if pair is None or k is None else len(pair[1]) == max(0, min(k, len(pair[0])))
            )

        support, ok = _count(obs, is_k)
        if ok and support:
            found.append(Relation("length_k", support, len(obs), {"k": name}))
    return found


def _bound_relations(obs: tuple[Observation, ...], params: tuple[str, ...]) -> list[Relation]:
    # an empty output says nothing about bounds
    values = [(o, _numbers(o.output)) for o in obs if numbers_in(o.output) != []]
    if not values or any(v is None for _, v in values):
        return []
    found = []
    low = min(min(v) for _, v in values if v)
    high = max(max(v) for _, v in values if v)
    # items of its list argument are bounded by the list, not by parameters that happen to
    # hold them (``select(lst, left, right, n)``: left and right are positions, not values)
    picked = all(_members(o, v) for o, v in values if v)
    for lo_name, hi_name in () if picked else itertools.permutations(params, 2):

        def within(
            o: Observation, v: list[float] | None, lo: str = lo_name, hi: str = hi_name
        ) -> bool:
            ints = _ints(o, params)
            return (
                lo in ints
                and hi in ints
                and v is not None
                and all(ints[lo] <= x <= ints[hi] for x in v)
            )

        if all(within(o, v) for o, v in values):
            found.append(
                Relation("bounds", len(values), len(obs), {"low": lo_name, "high": hi_name})
            )
            return found

    # the fixed low of a parameter-high bound: only if several inputs reached it, and half
    # of them at least (a die's 1; a walk's -2 is reached by its longer walks only)
    at_low = {repr(o.args) for o, v in values if v and min(v) == low}
    inputs = {repr(o.args) for o, v in values if v}
    fixed_low = low if len(at_low) > 1 and 2 * len(at_low) >= len(inputs) else None
    sourced = any(_source(o) for o in obs)  # values from a list argument: bounded by it, not k
    for hi_name in () if sourced else params:  # a fixed low, a parameter high: `sides` sides
        if all(
            v is not None and hi_name in _ints(o, params) and max(v) <= _ints(o, params)[hi_name]
            for o, v in values
            if v
        ) and any(v and hi_name in _ints(o, params) for o, v in values):
            options = {"low": fixed_low, "high": hi_name}
            found.append(Relation("bounds", len(values), len(obs), options))
            return found

    def in_range(o: Observation, v: list[float] | None) -> bool | None:
        src = _numbers(_source(o)) if _source(o) else None
        return None if not src or v is None else all(min(src) <= x <= max(src) for x in v)

    support, ok = _count(obs, lambda o: in_range(o, _numbers(o.output)))
    if ok and support:
        found.append(Relation("within_input", support, len(obs)))
    elif not any(_source(o) for o in obs):
        options = fixed_bounds(values, low, high)
        if options:
            found.append(Relation("bounds", len(values), len(obs), options))
    return found


def _ranked(
    o: Observation, name: str, base: int, largest: bool, params: tuple[str, ...]
) -> bool | None:
    """Is the output the k-th smallest (largest) of the sequence argument? None when the call
    says nothing: no list of two or more distinct values, ``k`` outside it (with repeats the
    k-th smallest reads two ways, so only distinct values are judged)."""
    src, k = _source(o), _ints(o, params).get(name)
    if src is None or len(src) < 2 or k is None or not 0 <= k - base < len(src):
        return None
    if len({_key(v) for v in src}) != len(src):
        return None
    if as_sequence(o.output) is not None:
        return False
    try:
        return bool(o.output == sorted(src, reverse=largest)[k - base])
    except TypeError:
        return None


def order_agreement(
    obs: Sequence[Observation], params: tuple[str, ...]
) -> list[tuple[int, int, dict[str, Any]]]:
    """For each int parameter as ``k``, counted from 0 or 1, smallest or largest: on how many
    of the calls that tell was the output the k-th element in order, and how many told."""
    found = []
    for name in params:
        for base, largest in itertools.product((0, 1), (False, True)):
            verdicts = [_ranked(o, name, base, largest, params) for o in obs]
            told = [v for v in verdicts if v is not None]
            positions = {
                _ints(o, params).get(name) for o, v in zip(obs, verdicts, strict=True) if v
            }
            if len(positions) > 1:  # one k only says nothing about which k
                options = {"k": name, "base": base, "largest": largest}
                found.append((sum(told), len(told), options))
    return found


def _order_relations(obs: tuple[Observation, ...], params: tuple[str, ...]) -> list[Relation]:
    """The output is the k-th smallest (or largest) of the sequence argument on every call
    that tells (a randomized selection: its answer never varies)."""
    for agree, told, options in order_agreement(obs, params):
        if told >= 5 and agree == told:
            return [Relation("order_statistic", told, len(obs), options)]
    return []


def _fixed_points(o: Observation) -> int | None:
    """How many elements stayed in place, for a permutation of 3+ distinct elements (a
    string's characters, for a string rearranged)."""
    src, out = _source(o), as_sequence(o.output)
    if len(o.args) == 1 and isinstance(o.args[0], str) and isinstance(o.output, str):
        src, out = list(o.args[0]), list(o.output)
    if src is None or out is None or len(src) < 3 or len(out) != len(src):
        return None
    keys = list(map(_key, src))
    if len(set(keys)) != len(keys) or Counter(keys) != Counter(map(_key, out)):
        return None
    return sum(1 for a, b in zip(keys, out, strict=True) if a == _key(b))


def _mixes(obs: tuple[Observation, ...]) -> Relation | None:
    counts = [c for c in map(_fixed_points, obs) if c is not None]
    if len(counts) < 10:  # too few to tell a uniform shuffle from a partial one
        return None
    mean = sum(counts) / len(counts)  # 1 for a uniform permutation, sd 1 per call
    return Relation("mixes", len(counts), len(obs)) if 0.4 <= mean <= 2.0 else None


def _varies(obs: tuple[Observation, ...]) -> Relation | None:
    by_input: dict[str, set[str]] = {}
    for o in obs:
        by_input.setdefault(repr(o.args), set()).add(repr(o.output))
    support = sum(1 for outs in by_input.values() if len(outs) > 1)
    return Relation("varies", support, len(obs)) if support else None


def relations(observed: Observations) -> tuple[Relation, ...]:
    """Every relation that held on all accepted calls in ``observed`` (see the module docstring)."""
    obs = observed.accepted
    if not obs:
        return ()
    found = _shape_relations(obs, observed.parameters)
    found += _bound_relations(obs, observed.parameters)
    found += _order_relations(obs, observed.parameters)
    found += [r for r in (_varies(obs), _mixes(obs)) if r is not None]
    return tuple(found)
