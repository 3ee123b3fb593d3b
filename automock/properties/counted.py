"""Outputs whose length a count parameter gives: ``roll(num_dice)``, ``random_list(size)``.

A generator of ``n`` draws (``[randint(1, 6) for _ in range(n)]``) returns ``n`` items
whatever it draws; Daikon would report ``len(output) == n``, and :func:`counted_length`
proposes it as ``length`` with option ``n`` (the parameter's name). A count parameter
(``n``, ``k``, ``r``, ``size``, ``num_dice``, ``number_of_dice``) that the output misses by
exactly one on every call, the one-short of ``range(n - 1)``, is the same expectation
broken: it is proposed too, and its check fails. So is one past a parameter whose name says it is the
output's size (``length``, ``num_chars``, ``quantity``: ``range(length + 1)``; or a bare
``n``: ``choices(data, k=n + 1)``), except in a walk, path or history that always starts at
the same place (a walk of ``n`` steps visits ``n + 1`` places; a series of coin flips,
which starts anywhere, does not). And so is twice a count, each item twice in a row
(``choice(alphabet) * 2 for _ in range(length)``): every item repeated is no draw of
``length`` items. Only for outputs that vary with the seed, of a function that takes no
sequence the output is drawn from by size (a sample's ``k`` is ``length_k``'s).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from automock.properties._signature import COUNT_WORDS_ELSEWHERE, sizes_output
from automock.properties.infer import AppliedProperty, name_tokens
from automock.properties.items import as_sequence
from automock.properties.observe import Observation, Observations
from automock.properties.relations import Relation

__all__ = ["counted_length"]

# words of a parameter that counts the items it asks for
_COUNT_WORDS = frozenset({"n", "m", "k", "size", "count", "num", "number", "length", "amount"})
_COUNT_WORDS |= {"r"}  # itertools' length of a combination or permutation
_COUNT_WORDS |= COUNT_WORDS_ELSEWHERE
_WALK_WORDS = frozenset({"walk", "walks", "path", "paths", "trajectory", "steps", "positions"})
_WALK_WORDS |= {"history", "series", "row", "trace"}  # n steps and the start: n + 1 items
_LEAST_COUNTS = 3  # different counts seen before a length is taken to follow them
_LEAST_PAIRS = 12  # pairs seen repeated before a doubling is no luck (1 in 4096 for a coin)


def _items(output: Any) -> list[Any] | None:
    if isinstance(output, set | frozenset | str | bytes):  # a string: its characters
        return list(output)
    return as_sequence(output)


def _counted(obs: tuple[Observation, ...], at: int) -> list[tuple[list[Any], int]] | None:
    """Each output's items with the count argument at ``at``; ``None`` unless every output is
    a sequence (or string) and every such argument an int."""
    pairs = []
    for o in obs:
        items = _items(o.output)
        count = o.args[at] if len(o.args) > at else None
        if items is None or type(count) is not int:
            return None
        pairs.append((items, count))
    return pairs


def _follows(obs: tuple[Observation, ...], at: int, short: int) -> bool:
    """Did every output of a sequence have ``count - short`` items, ``count`` the argument at
    ``at``, over :data:`_LEAST_COUNTS` different counts at least, two of them asking for
    some items (a count of 0 gives nothing either way)?"""
    counted = _counted(obs, at)
    if counted is None:
        return False
    counts: set[int] = set()
    for items, count in counted:
        if count < short:
            continue
        if len(items) != count - short:
            return False
        counts.add(count)
    asking = [c for c in counts if c > short]
    return len(counts) >= _LEAST_COUNTS and len(asking) >= 2


def counted_length(
    found: Mapping[str, Relation], observed: Observations, fname: str = ""
) -> list[AppliedProperty]:
    """``length`` for an output whose length a count parameter gives (see the module)."""
    obs = observed.accepted
    taken = ("length_k", "permutation", "member")
    if not obs or "varies" not in found or observed.in_place or any(t in found for t in taken):
        return []
    for at, name in enumerate(observed.parameters):
        if _follows(obs, at, 0):
            evidence = f"len(output) == {name} on all {len(obs)} accepted calls"
            return [AppliedProperty("length", {"n": name}, "inferred", evidence)]
        if set(name_tokens(name)) & _COUNT_WORDS and _follows(obs, at, 1):
            evidence = (
                f"len(output) == {name} - 1 on all {len(obs)} accepted calls: "
                f"{name} counts the items asked for, one is missing"
            )
            return [AppliedProperty("length", {"n": name}, "inferred", evidence)]
        if set(name_tokens(name)) & _COUNT_WORDS and _doubled(obs, at):
            evidence = (
                f"len(output) == 2 * {name} on all {len(obs)} accepted calls, each item twice "
                f"in a row: {name} counts the items, each is repeated"
            )
            return [AppliedProperty("length", {"n": name}, "inferred", evidence)]
        if sizes_output(name) and _follows(obs, at, -1) and not _walk(fname, obs):
            evidence = (
                f"len(output) == {name} + 1 on all {len(obs)} accepted calls: "
                f"{name} names the output's size, one is too many"
            )
            return [AppliedProperty("length", {"n": name}, "inferred", evidence)]
    return []


def _doubled(obs: tuple[Observation, ...], at: int) -> bool:
    """Did every output have twice the count at ``at`` items, each pair the same item twice
    (``aabbcc``), over :data:`_LEAST_COUNTS` counts and :data:`_LEAST_PAIRS` pairs of
    different calls (a call repeated under its seed repeats its output)?"""
    counted = _counted(obs, at)
    if counted is None or any(
        count < 0
        or len(items) != 2 * count
        or any(a != b for a, b in zip(items[::2], items[1::2], strict=True))
        for items, count in counted
    ):
        return False
    calls = {(repr(o.args), o.seed): count for o, (_, count) in zip(obs, counted, strict=True)}
    return len(set(calls.values())) >= _LEAST_COUNTS and sum(calls.values()) >= _LEAST_PAIRS


def _walk(fname: str, obs: tuple[Observation, ...]) -> bool:
    """Is the function a walk or path (its places are its steps and the start): so named, and
    every output begins at the same place? A series of coin flips begins anywhere."""
    starts = {repr(items[0]) for o in obs if (items := _items(o.output))}
    return bool(set(name_tokens(fname)) & _WALK_WORDS) and len(starts) == 1
