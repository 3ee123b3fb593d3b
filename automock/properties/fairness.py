"""The distribution check a distribution property runs, and how it calls the function.

``uniform``, ``proportional``, ``tournament`` and ``estimates`` are verdicts on many
seeded runs, not on one input. :func:`fairness` picks the check that fits the options
(a shuffle's position table, a choice's, a sample's, a draw with replacement's, a pick by
weight's, a tournament's, a sum of dice's, an estimate's mean) and adapts ``fn`` to the
way that check calls it: by parameter name, with its list's length, with one item asked
for, a one-element list read as its element, a string shuffled as its characters. A
chance rejection is not taken for a bias (:func:`~automock.properties.distribution.replicated`).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

from automock.properties._signature import driven_parameters, sizes_output
from automock.properties.dice import dice_fairness
from automock.properties.distribution import (
    SHUFFLE_LENGTH,
    DistributionResult,
    choice_uniformity,
    replicated,
    shuffle_uniformity,
)
from automock.properties.draws import sample_uniformity, weighted_fairness
from automock.properties.estimate import mean_estimate
from automock.properties.runner import materialized
from automock.properties.together import sums_to_one
from automock.properties.tournament import (
    TOURNAMENT_MEMBERS,
    TOURNAMENT_SIZE,
    tournament_fairness,
)

__all__ = ["fairness"]


def _by_name(
    fn: Callable[..., Any], first: str, second: str, size: str = ""
) -> Callable[[Any, Any], Any]:
    """``fn`` called with its two named arguments (a generator's items as its output), and
    ``size`` (if named) the first one's length (``population_size``)."""

    def call(a: Any, b: Any) -> Any:
        lengths = {size: len(a)} if size else {}
        return materialized(fn(**{first: a, second: b}, **lengths))

    return call


def _throwing(fn: Callable[..., Any], count: Any) -> Callable[[], Any]:
    """``fn`` called with nothing, or with 1000 for its count of throws (``count``)."""
    return lambda: materialized(fn(**({str(count): 1000} if count else {})))


def _contest(fn: Callable[..., Any], names: Mapping[str, Any]) -> Callable[..., Any]:
    """``fn`` called as a tournament: its list, weights and size by name, and a count of
    winners (``num_selections``), if it takes one, of 1."""

    def call(items: Any, weights: Any, size: int) -> Any:
        kwargs = {str(names["list"]): items, str(names["weights"]): weights}
        kwargs[str(names["size"])] = size
        if names.get("count"):
            kwargs[str(names["count"])] = 1
        return materialized(fn(**kwargs))

    return call


def _uniformity(
    fn: Callable[..., Any], options: Mapping[str, Any], runs: int, seed: int
) -> DistributionResult:
    """The distribution check that fits: a shuffle's, a choice's (``wrapped``: handed back
    in a one-element list; ``draws``: one of ``k`` put back, ``{"list": ..., "size": ...}``),
    a sample's (``sample``
    names the parameters that take the list and the size: ``{"list": "xs", "size": "k"}``)
    or a weighted choice's (``weights``: ``{"list": "population", "weights": "fitness"}``)."""
    n, alpha = int(options.get("n", 5)), float(options.get("alpha", 1e-3))
    weighted, drawing = options.get("weights"), options.get("sample")
    fn = _unwrapped(fn) if options.get("wrapped") else fn
    if isinstance(options.get("value"), int | float):  # an estimate of a known value
        return mean_estimate(
            _throwing(fn, options.get("count")),
            float(options["value"]),
            runs=min(runs, 300),
            seed=seed,
            alpha=alpha,
        )
    if isinstance(options.get("dice"), int):  # a roll of dice: the sum of fair ones
        faces = int(options.get("faces", 6))
        roll = _throwing(fn, None)
        return dice_fairness(roll, options["dice"], faces, runs=runs, seed=seed, alpha=alpha)
    contest = options.get("tournament")
    if isinstance(contest, Mapping):  # {"list": ..., "weights": ..., "size": "k"}
        return tournament_fairness(
            _contest(fn, contest),
            n=int(options.get("n", TOURNAMENT_MEMBERS)),
            size=int(options.get("k", TOURNAMENT_SIZE)),
            runs=runs,
            seed=seed,
            alpha=alpha,
        )
    if isinstance(weighted, Mapping):  # {"list": "population", "weights": "fitnesses"}
        choose = _by_name(
            fn, str(weighted["list"]), str(weighted["weights"]), str(weighted.get("size", ""))
        )
        chances = sums_to_one(str(weighted["weights"]))
        return weighted_fairness(
            choose, n=n, runs=runs, seed=seed, alpha=alpha, probabilities=chances
        )
    if isinstance(drawing, Mapping):  # {"list": "xs", "size": "k"}
        draw = _by_name(fn, str(drawing["list"]), str(drawing["size"]))
        k = int(options.get("k", n // 2))
        return sample_uniformity(draw, n=n, k=k, runs=runs, seed=seed, alpha=alpha)
    draws = options.get("draws")
    if isinstance(draws, Mapping):  # {"list": "deck", "size": "k"}: one draw a run, put back
        first = _first_draw(fn, str(draws["list"]), str(draws.get("size", "")))
        return choice_uniformity(first, n=n, runs=runs, seed=seed, alpha=alpha)
    fn = _as_text(fn) if options.get("text") else _with_its_length(fn)
    if options.get("choice"):
        return choice_uniformity(fn, n=n, runs=runs, seed=seed, alpha=alpha)
    n = int(options.get("n", SHUFFLE_LENGTH))  # a shuffle: a longer list, more power
    return shuffle_uniformity(fn, n=n, runs=runs, seed=seed, alpha=alpha)


def fairness(
    fn: Callable[..., Any], options: Mapping[str, Any], runs: int, seed: int
) -> DistributionResult:
    """The distribution check of ``fn``, a chance rejection not taken for a bias
    (:func:`~automock.properties.distribution.replicated`)."""
    alpha = float(options.get("alpha", 1e-3))
    return replicated(
        lambda level, at, many: _uniformity(fn, {**options, "alpha": level}, many, at),
        alpha,
        seed,
        runs,
    )


def _with_its_length(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` of a list and its length (``randomize(arr, n)``, ``shuffle(xs, size)``) as a
    function of the list alone, the length its len(); any other ``fn`` as it is."""
    rest = [p.name for p in driven_parameters(fn)][1:]
    if not rest or not all(sizes_output(name) for name in rest):
        return fn
    return lambda items: fn(items, *[len(items)] * len(rest))


def _first_draw(fn: Callable[..., Any], items: str, size: str) -> Callable[[Any], Any]:
    """A draw with replacement as one choice: ``fn`` asked for one item (``size`` named),
    else the first of its resample of the whole list."""

    def choose(values: Any) -> Any:
        out = materialized(fn(**{items: values}, **({size: 1} if size else {})))
        return out[0] if isinstance(out, list | tuple) and out else out

    return choose


def _unwrapped(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``'s one-element list as the element itself (anything else as it came)."""

    def choose(*args: Any, **kwargs: Any) -> Any:
        out = materialized(fn(*args, **kwargs))
        return out[0] if isinstance(out, list | tuple) and len(out) == 1 else out

    return choose


def _as_text(fn: Callable[..., Any]) -> Callable[[list[int]], Any]:
    """A shuffle of a string (``shuffle_string(word)``) as one of a list: the list's items
    handed over as distinct letters, the letters it returns read back as the items (any
    other output as it came, which no permutation check takes for one)."""
    letters = string.ascii_letters

    def shuffle(items: list[int]) -> Any:
        out = materialized(fn("".join(letters[i] for i in items)))
        if not isinstance(out, str) or not set(out) <= set(letters[: len(items)]):
            return out
        return [letters.index(c) for c in out]

    return shuffle
