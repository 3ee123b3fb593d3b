"""Which fairness check fits a function that draws from the list it is given.

:mod:`~automock.properties.propose` holds a function that varies with the seed to a
distribution check chosen by what it was seen drawing:

* :func:`wrapped_choice`: one element handed back in a list (``choices(xs, k=1)``);
* :func:`drawing`: ``k`` of the list without replacement (a sample: each element in
  ``k / n`` of the runs);
* :func:`put_back`: ``k`` of the list with replacement, more than it holds at times (a
  blackjack draw from an endless deck, ``random.choices``), or as many as it holds with
  repeats (a bootstrap resample): each draw a fair choice;
* :func:`shuffled_text`: a string's characters rearranged (``shuffle_string(word)``): a
  shuffle, checked on a string of distinct letters.
"""

from __future__ import annotations

from collections.abc import Mapping

from automock.properties.infer import meant_uneven
from automock.properties.items import as_sequence
from automock.properties.observe import Observation, Observations
from automock.properties.relations import Relation, drawn_back

__all__ = ["drawing", "put_back", "shuffled_text", "wrapped_choice"]


def wrapped_choice(observed: Observations) -> bool:
    """Did every call return a list of one element, on lists of two or more at least once
    (``choices(population, k=1)``: a choice handed back in a list)?"""
    outputs = [o.output for o in observed.accepted]
    longer = any(isinstance(o.args[0], list) and len(o.args[0]) > 1 for o in observed.accepted)
    return longer and all(isinstance(out, list | tuple) and len(out) == 1 for out in outputs)


def drawing(
    found: Mapping[str, Relation], observed: Observations, name: str
) -> dict[str, str] | None:
    """``{"list": ..., "size": ...}`` for a fair sample's check: a function of a list and its
    size ``k`` only, seen drawing ``k`` of the list without replacement, varying with the seed."""
    rel = found.get("length_k")
    needed = ("varies", "submultiset", "length_k")
    if rel is None or not all(r in found for r in needed) or meant_uneven(name):
        return None
    size = rel.options.get("k")
    others = [p for p in observed.parameters if p != size]
    if not isinstance(size, str) or len(others) != 1 or len(observed.parameters) != 2:
        return None
    at = observed.parameters.index(others[0])
    if not all(isinstance(o.args[at], list) for o in observed.calls if len(o.args) > at):
        return None
    return {"list": others[0], "size": size}


def put_back(
    found: Mapping[str, Relation], observed: Observations, name: str
) -> dict[str, str] | None:
    """``{"list": ..., "size": ...}`` for a function of a list and a count only, seen drawing
    that many of the list's elements, more than it holds at times (it puts them back, as
    ``random.choices`` does), varying with the seed: each item drawn is a fair choice."""
    params, obs = observed.parameters, observed.accepted
    if not {"varies", "subset"} <= set(found) or meant_uneven(name):
        return None
    if len(params) == 1 and "submultiset" not in found and _resampled(obs):
        return {"list": params[0]}  # a bootstrap: as many draws as the list holds
    if len(params) != 2 or not drawn_back(observed):
        return None
    for at in (0, 1):
        counted = all(
            isinstance(o.args[1 - at], list)
            and type(o.args[at]) is int
            and len(as_sequence(o.output) or ()) == max(0, o.args[at])
            for o in obs
        )
        if counted:
            return {"list": params[1 - at], "size": params[at]}
    return None


def _resampled(obs: tuple[Observation, ...]) -> bool:
    """Did every call return as many items as its one list holds, two or more at least once
    (with more repeats than the list has somewhere: the caller saw no sub-multiset)?"""
    sized = [
        (len(o.args[0]), len(as_sequence(o.output) or ()))
        for o in obs
        if isinstance(o.args[0], list) and as_sequence(o.output) is not None
    ]
    return (
        len(sized) == len(obs) and any(n >= 2 for n, _ in sized) and all(n == m for n, m in sized)
    )


def shuffled_text(observed: Observations) -> bool:
    """Did every call take one string and return a string of its characters rearranged, on
    strings of two characters or more at least once?"""
    obs = observed.accepted
    texts = [o for o in obs if len(o.args) == 1 and isinstance(o.args[0], str)]
    longer = any(len(o.args[0]) > 1 for o in texts)
    rearranged = all(
        isinstance(o.output, str) and sorted(o.output) == sorted(o.args[0]) for o in texts
    )
    return bool(obs) and len(texts) == len(obs) and longer and rearranged
