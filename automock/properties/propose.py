"""Which properties to check, from observed behaviour first (issue 30).

:func:`propose` turns the :mod:`~automock.properties.relations` that held on
every observation into properties to check, each with its evidence:

- permutation of the sequence argument -> ``permutation`` (and ``uniform`` when
  the output varies with the seed, the function takes one list and the
  permutation mixes like a uniform shuffle: a cyclic shuffle or a two-element
  swap is a permutation, not a uniform one);
- a sub-multiset of length ``min(k, len)`` -> ``sample`` with ``k`` (and ``uniform``
  over which elements are drawn, for a function of the list and ``k`` only that varies
  with the seed); else a sub-multiset or subset -> ``subset``; one element of the one
  list given (or a list of one of them, as ``choices`` returns), varying with the seed ->
  ``subset`` and ``uniform`` over its elements (a fair choice), unless the name says the
  pick is weighted (``roulette``, ``tournament``...); ``k`` of the list put back (more than
  it holds, at times) -> ``uniform`` over each draw (:mod:`~automock.properties.fair_draws`);
- the k-th smallest (or largest) of the list, ``k`` an int parameter -> ``order_statistic``;
- ``sorted``, ``unique``; numbers within parameters (``low``/``high``) or within
  fixed bounds seen -> ``bounds``;
- examples in the docstring -> ``examples`` (:mod:`~automock.properties.documented`);
- a function of no arguments seen raising -> ``returns`` (no input of it is out of its domain).

The plan's properties win; the name rules of :mod:`~automock.properties.infer`
are hints only, added when observation does not contradict them. Two names are more
than hints: a selection (``quickselect``, ``kth_smallest``) that gave the k-th element on
most calls is held to it on all, and a pick by weight (``roulette_wheel_selection``
given ``fitnesses``) is checked for picking in proportion (``proportional``). What the
docstring or a parameter's name states (:mod:`~automock.properties.stated`)
replaces an inferred property of the same name where behaviour nearly agrees. The
distribution checks share the significance level :data:`ALPHA` (Bonferroni): with
``m`` of them each runs at ``ALPHA / m``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from automock.plan.model import PropertySpec
from automock.properties._signature import signature_of
from automock.properties.bounded import DEFAULT_CALL_SECONDS
from automock.properties.converge import converging_estimate
from automock.properties.counted import counted_length
from automock.properties.crossover import parents_genes, parents_length
from automock.properties.distribution import SHUFFLE_LENGTH
from automock.properties.documented import example_count
from automock.properties.fair_draws import drawing, put_back, shuffled_text, wrapped_choice
from automock.properties.infer import (
    AppliedProperty,
    infer_properties,
    meant_uneven,
    name_tokens,
)
from automock.properties.items import as_sequence
from automock.properties.observe import Observations, ignores_lists, observe
from automock.properties.relations import Relation, drawn_back, order_agreement, relations
from automock.properties.runner import DISTRIBUTION_PROPERTIES
from automock.properties.stated import stated
from automock.properties.together import WEIGHT_NAMES, length_of
from automock.properties.tournament import tournament_hint
from automock.properties.wheel import spins_wheel
from automock.properties.workload import lightened

__all__ = ["ALPHA", "propose", "seed_dependent"]

# family-wise significance level of one function's inferred distribution tests: nobody chose
# them, and a corpus checks many functions (150 checks see a chance alarm about 1.5% of
# the time at 1e-4, 14% at 1e-3); the biased shuffles and samplers measured fail far below it
ALPHA = 1e-4
# the words that say "without replacement"; a draw, pick or deal may put back what it drew
_SAMPLE_WORDS = frozenset({"sample", "sampling", "reservoir"})


def _evidence(rel: Relation, observed: Observations) -> str:
    seeds = len({o.seed for o in observed.calls})
    if rel.name == "varies":
        return f"the output changed with the seed on {rel.support} inputs over {seeds} seeds"
    return f"{rel.name} held on all {rel.seen} accepted calls ({rel.support} telling) over {seeds} seeds"


def _from_relations(
    found: Mapping[str, Relation], observed: Observations, name: str
) -> list[AppliedProperty]:
    out: list[AppliedProperty] = []

    def add(prop: str, rel: Relation, options: Mapping[str, Any] | None = None) -> None:
        opts = dict(options or {})
        if observed.in_place and prop not in DISTRIBUTION_PROPERTIES:  # the argument is the output
            opts["in_place"] = True
        out.append(AppliedProperty(prop, opts, "inferred", _evidence(rel, observed)))

    if "permutation" in found:
        add("permutation", found["permutation"])
    elif "submultiset" in found and "length_k" in found:
        add("sample", found["length_k"], {"k": found["length_k"].options["k"]})
    elif "submultiset" in found or "subset" in found:
        add("subset", found.get("submultiset") or found["subset"])
    elif "member" in found:  # one element of the sequence argument (a choice)
        nothing = any(o.output is None for o in observed.accepted)  # seen choosing nothing
        add("subset", found["member"], {"choice": True} if nothing else {})
    if "order_statistic" in found:  # a selection: its answer is fixed though it draws
        rel = found["order_statistic"]
        add("order_statistic", rel, rel.options)
    if "sorted" in found:
        add("sorted", found["sorted"])
    if "unique" in found and "permutation" not in found:
        add("unique", found["unique"])
    bounds = found.get("bounds")
    relative = bounds is not None and any(  # low or high names a parameter
        isinstance(bounds.options.get(side), str) for side in ("low", "high")
    )
    if bounds is not None and (relative or "varies" in found):  # fixed bounds seen: random only
        add("bounds", bounds, bounds.options)
    one_list = len(observed.parameters) == 1 and all(
        isinstance(o.args[0], list) for o in observed.calls
    )
    fair = "varies" in found and one_list and not meant_uneven(name)
    chose_nothing = any(o.output is None and any(o.args[:1]) for o in observed.accepted)
    sampling = drawing(found, observed, name)
    if fair and "permutation" in found and "mixes" in found:
        add("uniform", found["varies"], {"n": SHUFFLE_LENGTH})
    elif {"varies", "mixes"} <= set(found) and shuffled_text(observed) and not meant_uneven(name):
        add("uniform", found["mixes"], {"n": SHUFFLE_LENGTH, "text": True})
    elif sampling is not None:  # k of the list, varying with the seed: fair to every element
        add("uniform", found["varies"], {"n": 6, "k": 3, "sample": sampling})
    elif fair and "member" in found and not chose_nothing:  # None from [] only
        add("uniform", found["varies"], {"n": 5, "choice": True})
    elif fair and "submultiset" in found and wrapped_choice(observed):
        add("uniform", found["varies"], {"n": 5, "choice": True, "wrapped": True})
    elif (draws := put_back(found, observed, name)) is not None:  # each draw a fair choice
        add("uniform", found["varies"], {"n": 5, "choice": True, "draws": draws})
    return out


_SELECTION = frozenset({"quickselect", "select", "kth", "nth", "median"})


def _selection_hint(
    found: Mapping[str, Relation], observed: Observations, name: str
) -> list[AppliedProperty]:
    """A function named for a selection (``quickselect``, ``rselect``, ``kth_smallest``,
    ``random_selection``) that gave the k-th smallest element on most calls that tell is
    held to it on all: the calls that
    missed are the bug, not the evidence against the name. So is one whose answer changed
    with the seed on one input, however rarely it was right: a selection's answer is
    fixed by its input, and one that is right only on some draws is wrong."""
    tokens = set(name_tokens(name))
    if any(t.endswith("select") for t in tokens):  # rselect, randselect, qselect: a select
        tokens.add("select")
    # `selection` also names a genetic algorithm's pick of a parent: a selection of rank only
    # when most calls gave the k-th element, and never a tournament's or a wheel's
    loose = "selection" in tokens and not meant_uneven(name)
    if "order_statistic" in found or not (tokens & _SELECTION or loose):
        return []
    best = max(
        (a for a in order_agreement(observed.accepted, observed.parameters) if a[1] >= 5),
        key=lambda a: a[0] / a[1],
        default=None,
    )
    # a tournament's or a wheel's pick is drawn, not ranked: its answer may change
    unsettled = None if meant_uneven(name) or not tokens & _SELECTION else found.get("varies")
    if best is None or (best[0] * 2 < best[1] and unsettled is None):
        return []
    agree, told, options = best
    evidence = f"name: a selection; the k-th element on {agree} of {told} calls that tell"
    if best[0] * 2 < best[1] and unsettled is not None:
        evidence += f", and its answer changed with the seed on {unsettled.support} inputs"
    return [AppliedProperty("order_statistic", options, "name", evidence)]


_WEIGHTED = frozenset({"roulette", "wheel", "weighted", "proportional", "proportionate"})
# a linear rank selection picks by rank; on distinct weights 1..n (the check's) the ranks
# are the weights, so its picks are in proportion to them too
_RANKED = frozenset({"rank", "ranked", "ranking"})
_SELECTING = frozenset({"selection", "select"})
_PLAIN_WEIGHTS = frozenset({"weights", "probabilities", "probs"})  # nothing but weights


def _weighted_hint(
    found: Mapping[str, Relation], observed: Observations, name: str, fn: Callable[..., Any]
) -> list[AppliedProperty]:
    """A pick of one element of a list, given a list of weights, is checked for picking by
    weight when its name says so (``roulette_wheel_selection(population, fitnesses)``) or
    its weights parameter is plainly called so (``choice(population, weights)``, or an
    optional ``weights=None`` beside the list, as ``choices`` takes, called with them)."""
    wrapped = "member" not in found and "submultiset" in found and wrapped_choice(observed)
    if "member" not in found and not wrapped:
        return []
    tokens = set(name_tokens(name))
    named = bool(tokens & _WEIGHTED) or bool(tokens & _RANKED and tokens & _SELECTING)
    every = range(len(observed.parameters))  # `population_size`: fitted to it, not drawn
    lengths = {
        observed.parameters[j]: observed.parameters[i]
        for i, j in length_of(observed.parameters, every)
    }
    params = tuple(p for p in observed.parameters if p not in lengths)
    weights = [p for p in params if p.lower().endswith(WEIGHT_NAMES)]
    optional = [p for p in _optional(fn) if p.lower() in _PLAIN_WEIGHTS]
    spun = spins_wheel(fn, weights[0]) if len(weights) == 1 and not named else None
    plain = len(weights) == 1 and weights[0].lower() in _PLAIN_WEIGHTS
    if len(params) == 2 and len(weights) == 1 and (named or spun or plain):
        (items,) = [p for p in params if p != weights[0]]
    elif len(params) == 1 and not weights and len(optional) == 1:
        items, weights = params[0], optional
    else:
        return []
    evidence = (
        f"{'name: ' if named else ''}a pick by weight; parameter {weights[0]!r} holds the weights"
    ) + (f" ({spun})" if spun else "")
    chosen = {"list": items, "weights": weights[0]}
    size = [length for length, of in lengths.items() if of == items]
    if len(size) != len(lengths):  # a length of something else: no call of the two is whole
        return []
    if size:
        chosen["size"] = size[0]
    options: dict[str, Any] = {"n": 5, "weights": chosen}
    if wrapped:
        options["wrapped"] = True
    return [AppliedProperty("proportional", options, "name", evidence)]


def _optional(fn: Callable[..., Any]) -> list[str]:
    """``fn``'s parameters that have a default of ``None`` (given only when wanted)."""
    signature = signature_of(fn)
    if signature is None:
        return []
    params = signature.parameters.values()
    return [p.name for p in params if p.default is None]


def _raising(observed: Observations) -> list[AppliedProperty]:
    """A function of no arguments seen raising is held to returning (``returns``): it takes
    no input, so none is outside its domain and the error is its own."""
    raised = [c.raised.removeprefix("error: ") for c in observed.calls if c.raised != "timeout"]
    raised = [r for r in raised if r]
    if observed.parameters or not raised:
        return []
    what = ", ".join(sorted(set(raised)))
    evidence = (
        f"raised ({what}) on {len(raised)} of {len(observed.calls)} seeded calls; "
        "it takes no input, so none is outside its domain"
    )
    return [AppliedProperty("returns", {}, "inferred", evidence)]


def seed_dependent(fn: Callable[..., Any], call_seconds: float = DEFAULT_CALL_SECONDS) -> bool:
    """Does ``fn``'s output change with the seed on some sample input?"""
    observed = observe(fn, seeds=(0, 1, 2), call_seconds=call_seconds)
    return any(r.name == "varies" for r in relations(observed))


def propose(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    specs: Sequence[PropertySpec] = (),
    namespace: Mapping[str, Any] | None = None,
    examples: Sequence[Sequence[Any]] = (),
    call_seconds: float = DEFAULT_CALL_SECONDS,
) -> tuple[tuple[AppliedProperty, ...], Observations]:
    """The properties to check on ``fn`` (see the module docstring) and the observations;
    ``fn`` is called with a workload default lowered
    (:func:`~automock.properties.workload.lightened`)."""
    fn, _ = lightened(fn)
    hinted = infer_properties(fn, name=name, specs=specs, namespace=namespace)
    observed = observe(fn, examples=examples, call_seconds=call_seconds)
    if any(a.source == "plan" for a in hinted):
        return hinted, observed
    found = {r.name: r for r in relations(observed)}
    fname = str(name or getattr(fn, "__name__", ""))
    inferred = _from_relations(found, observed, fname)
    inferred += _selection_hint(found, observed, fname)
    inferred += _weighted_hint(found, observed, fname, fn)
    inferred += tournament_hint(found, observed, fname, fn)
    inferred += _raising(observed)
    inferred += counted_length(found, observed, fname) or parents_length(found, observed)
    inferred += parents_genes(found, observed, fname)
    estimate = converging_estimate(fn, observed) if "varies" in found else None
    if estimate is not None:
        inferred.append(estimate)
    have = {a.property for a in inferred}
    for hint in hinted:  # a name's guess stays a hint: kept where it applies
        if hint.property in have or not _consistent(hint.property, found, observed, fname):
            continue
        if observed.in_place and hint.property not in DISTRIBUTION_PROPERTIES:
            options = {**hint.options, "in_place": True}
            hint = AppliedProperty(hint.property, options, hint.source, hint.evidence)
        inferred.append(hint)
        have.add(hint.property)
    for said in stated(fn, observed, inferred):  # the function's own words, where they fit
        if any(a.property == said.property and a.options == said.options for a in inferred):
            continue  # behaviour already showed what the words say
        inferred = [a for a in inferred if a.property != said.property] + [said]
    documented = example_count(fn)
    if documented:  # the author's own examples: a claim behaviour cannot make
        inferred.append(
            AppliedProperty("examples", {}, "stated", f"{documented} examples in the docstring")
        )
    inferred = _sized(inferred, observed, call_seconds)
    spread = [a for a in inferred if a.property in DISTRIBUTION_PROPERTIES]
    alpha = ALPHA / max(1, len(spread))
    return tuple(
        AppliedProperty(a.property, {**a.options, "alpha": alpha}, a.source, a.evidence)
        if a.property in DISTRIBUTION_PROPERTIES
        else a
        for a in inferred
    ), observed


def _sized(
    inferred: list[AppliedProperty], observed: Observations, call_seconds: float
) -> list[AppliedProperty]:
    """Costly on small inputs: the inferred checks search no larger lists than observed."""
    if observed.slowest <= call_seconds / 50:
        return inferred
    size = max(
        (len(a) for o in observed.accepted for a in o.args if isinstance(a, list)), default=0
    )
    return [
        AppliedProperty(a.property, {**a.options, "max_size": size}, a.source, a.evidence)
        if a.source == "inferred" and a.property not in DISTRIBUTION_PROPERTIES
        else a
        for a in inferred
    ]


def _consistent(
    prop: str, found: Mapping[str, Relation], observed: Observations, fname: str
) -> bool:
    """A name's guess is kept unless it cannot apply to what the function returns.

    A guess that applies but did not hold is kept: a function named ``sort`` whose
    output is not sorted is the bug to report. One that cannot apply (``pick``
    guessed as ``sample`` while the function returns one element) is dropped, and so
    is a sort's or shuffle's guess for a function seen drawing a part of its input
    (``sortedReservoirSample`` samples; it does not sort), a guess about the
    sequence argument for a function given none, and ``uniform`` for a function that
    needs more than its list (``shuffle(a, seed)``: its runs are decided by the seed).
    Only what it returned on lists of two or more elements counts: ``sattoloCycle``
    that refuses every longer list and returns ``None`` for ``[]`` keeps its guess, and
    the check reports the failure. A ``draw``, ``pick`` or deal seen returning more items
    than it was given puts them back: only a name that says ``sample`` is held to it then.
    """
    drawn = "length_k" in found and "permutation" not in found  # k of the input, k a parameter
    if drawn and prop in ("permutation", "sorted", "uniform"):
        return False
    if prop == "sample" and observed.in_place and "permutation" in found:
        return False  # it draws in place: its list keeps every item (EPI's random_sampling(k, A))
    if prop == "sample" and not set(name_tokens(fname)) & _SAMPLE_WORDS and drawn_back(observed):
        return False
    if prop == "uniform" and len(observed.parameters) != 1:  # run on the list alone, it cannot
        return False  # be (`shuffle(a, seed)` needs its seed and is decided by it)
    takes_sequence = observed.takes_lists
    if prop == "permutation" and not takes_sequence:  # a word's letters rearranged
        takes_sequence = _rewords(observed)
    if prop in ("permutation", "sample", "subset", "uniform") and not takes_sequence:
        return False  # `draw_lotto()` draws, but from nothing it is given
    if prop not in ("permutation", "sorted", "unique", "sample", "subset", "uniform"):
        return True
    # what it returned on inputs of two or more elements says; a function that took only
    # empty or one-element lists (refusing every longer one) says nothing against the guess
    telling = [o for o in observed.accepted if _telling(o.args)]
    if prop in ("permutation", "sample", "subset") and ignores_lists(telling):
        return False  # `deal_hand(players)` deals from a deck of its own, not from `players`
    lettered = prop == "permutation" and _rewords(observed)
    return all(as_sequence(o.output) is not None or lettered for o in telling)


def _rewords(observed: Observations) -> bool:
    """Does ``observed`` take a string and return strings (``shuffle_word(word)``)?"""
    texts = any(isinstance(a, str) for o in observed.calls for a in o.args)
    return (
        texts
        and bool(observed.accepted)
        and all(isinstance(o.output, str) for o in observed.accepted)
    )


def _telling(args: Sequence[Any]) -> bool:
    lists = [a for a in args if isinstance(a, list | tuple)]
    return not lists or any(len(a) >= 2 for a in lists)
