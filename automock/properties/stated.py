"""What a function says it does: bounds and shapes stated in its docstring or names.

Observed behaviour cannot tell an off-by-one die (``randint(1, sides + 1)``) from a
seven-sided one, nor a draw with replacement from a function meant to repeat. The
function's own words can: its docstring ("a number between 1 and ``sides``", "a random
permutation", "distinct values", "sorted") and a parameter named for a die's faces
(``sides``, ``num_sides``, ``faces``, or ``dice`` as in "a d4": a value from 1 to that many;
a count of dice summed or listed goes past it and is left alone), as do the docstring's
words for one ("each having ``d`` sides", "a 20-sided die"). :func:`stated`
turns those words into properties to check, each with its evidence, and adopts one
only where behaviour nearly agrees with it, so words about something else are not
taken for a promise about the output:

- a bound from the docstring (strong evidence) is adopted when every value seen lies
  within one of it: an off-by-one is then the failure to report, while values far
  outside say the sentence was about something else;
- a bound from parameters' names (weak evidence: a convention, not a promise):
  ``low``/``high`` (``lo``/``hi``, ``min``/``max``, ``min_value``/``max_value``...) as
  ``randint`` reads them, and 1 to ``sides`` (``num_sides``, ``faces``) for a die, is adopted only
  when, in addition, one of its sides was met exactly (a die seen reaching ``sides``,
  or 1): a zero-based die (0 to ``sides - 1``) is off on both sides and is left alone;
- "permutation", "distinct", "unique", "without replacement" -> ``unique`` for a
  function given no sequence (a permutation of a given list keeps its repeats), and so
  does a name that says it draws a lottery (``lotto``, ``lottery``, ``raffle``,
  ``bingo``: distinct numbers by the game's rules), a ticket's numbers, a permutation or
  a subset made (``randperm(n)``, ``random_subset(n, k)``), a deck made (``new_deck()``,
  ``newdeck``: each card once) or a hand dealt from one (``deal_cards``); and
  "returns ... sorted" / "in ascending order" -> ``sorted``; both for a function seen
  returning sequences only. "Without replacement" in the name or docstring of a function
  seen drawing items of its list (``sampleWithOutReplacement``) -> ``sample``.
  "``len() = d``" -> ``length`` of ``d``, where every output seen was within one item of it;
- an estimate of pi by a quarter circle -> ``bounds`` [0, 4] and ``estimates`` pi
  (:mod:`~automock.properties.pi_estimate`).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from automock.properties._signature import (
    lone_heading,
    parameter_names,
    signature_of,
)
from automock.properties.dice import die_faces, rolled_dice
from automock.properties.fraction import counted_fraction
from automock.properties.infer import AppliedProperty, name_tokens
from automock.properties.items import numbers_in
from automock.properties.observe import Observations, ignores_lists
from automock.properties.pi_estimate import estimated_pi
from automock.properties.together import index_pair

__all__ = ["StatedBound", "stated", "stated_bounds"]

_DIE_FACES = frozenset({"sides", "faces", "side", "face", "dice", "die"})  # d4: `dice=4`
# words that name the two ends of the range drawn from, as `randint` reads them: two
# parameters whose names differ in these words alone (`min`/`max`, `min_value`/`max_value`,
# `lower_bound`/`upper_bound`, `minNum`/`maxNum`)
_RANGE_ENDS = (
    ("low", "high"),
    ("lo", "hi"),
    ("lower", "upper"),
    ("min", "max"),
    ("minimum", "maximum"),
    ("from", "to"),  # randint(random_from, random_to)
    ("desde", "hasta"),
    ("von", "bis"),
    ("minimo", "maximo"),
)
_BOUND = r"`{0,2}(-?\d+|[A-Za-z_]\w*)`{0,2}"  # `top`, ``1``: quoted as code
_BOUND_PATTERNS = (
    re.compile(rf"\bbetween\s+{_BOUND}\s+and\s+{_BOUND}\b"),
    re.compile(rf"\b(?:between|from)\s+{_BOUND}\s*[-\u2013]\s*{_BOUND}\b"),  # "between 1-49"
    re.compile(rf"\bfrom\s+{_BOUND}\s+(?:to|through)\s+{_BOUND}\b"),
    re.compile(rf"\[\s*{_BOUND}\s*,\s*{_BOUND}\s*\]"),
    re.compile(rf"\b{_BOUND}\s*<=\s*\w+\s*<=\s*{_BOUND}\b"),
    # "del 1 al 6", "de 1 a 6", "entre 1 y 6" (Spanish, Portuguese), "de 1 à 6", "entre 1
    # et 6" (French), "da 1 a 6" (Italian), "von 1 bis 6" (German)
    re.compile(rf"\b(?:del|de|da|dal|von)\s+{_BOUND}\s+(?:al|a|à|ao|até|bis)\s+{_BOUND}\b"),
    re.compile(rf"\bentre\s+{_BOUND}\s+(?:y|e|et)\s+{_BOUND}\b"),
)
# "each having `d` sides", "a 20-sided die", "with n faces": a die's faces, 1 to that many
# "len() = d", "len(result) == n": the output's length is the parameter named
_LENGTH_WORDS = re.compile(r"\blen\(\s*\w*\s*\)\s*={1,2}\s*`?([A-Za-z_]\w*)`?")
_DIE_WORDS = re.compile(rf"`?{_BOUND}`?[ -](?:sides|faces|sided)\b")
_LOTTERY = frozenset({"lotto", "lottery", "raffle", "bingo", "loteria", "keno", "loto"})
_LOTTERY |= {"sena", "megasena", "quina", "lotofacil", "powerball", "euromillions", "primitiva"}
_DEALT = frozenset({"deal", "dealt", "deals", "dealing"})  # of a deck made inside: no list given
_SUBSET = frozenset({"subset", "subsets", "combination", "combinations"})
_TICKET = frozenset({"ticket", "tickets"})  # distinct, but not numbered from 1 as a lottery's
# a function's name that says it estimates something its module's name may then name
_UNIQUE_WORDS = re.compile(
    r"\b(permutation|distinct|unique|without replacement|(?:no|not|without|cannot contain|never"
    r" contains?)\s+(?:any\s+)?(?:repeats|duplicates?|dups|repetitions?))\b"
)
_NO_WORDS = frozenset({"no", "without", "sans", "sin", "sem", "nodup", "nodups"})
_REPEAT_WORDS = frozenset({"dups", "dup", "duplicates", "repeats", "repetition", "nodup", "nodups"})
_UNREPLACED_WORDS = re.compile(r"\b(without|no|non) replacement\b")
_SORTED_WORDS = re.compile(r"\breturns?\b[^.]*?\b(sorted|in ascending order|in increasing order)\b")


@dataclass(frozen=True, slots=True)
class StatedBound:
    """An inclusive range ``[low, high]`` the function states; a side is a number or a parameter."""

    low: int | str
    high: int | str
    evidence: str
    strong: bool  # from the docstring; a parameter's name is a convention only


def _parameters(fn: Callable[..., Any]) -> tuple[str, ...]:
    return parameter_names(fn)


def _side(text: str, params: Sequence[str]) -> int | str | None:
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text if text in params else None


def stated_bounds(fn: Callable[..., Any]) -> tuple[StatedBound, ...]:
    """The ranges ``fn``'s docstring states, then the die ranges its parameters' names imply."""
    params = _parameters(fn)
    doc = inspect.getdoc(fn) or ""
    found: list[StatedBound] = []
    for pattern in _BOUND_PATTERNS:
        for match in pattern.finditer(doc):
            low, high = (_side(g, params) for g in match.groups())
            if low is not None and high is not None and low != high:
                found.append(StatedBound(low, high, f"docstring: {match.group(0)!r}", True))
    for low, high in _range_ends(params):
        found.append(StatedBound(low, high, f"parameters {low!r} and {high!r}", False))
    for name in params:
        if set(re.split(r"_+", name.lower())) & _DIE_FACES:
            found.append(
                StatedBound(1, name, f"parameter {name!r}: a die's faces 1..{name}", False)
            )
    for match in _DIE_WORDS.finditer(doc):  # a convention as the names are: weak evidence
        faces = _side(match.group(1), params)
        if faces is not None and faces != 1:
            evidence = f"docstring: {match.group(0)!r}: a die's faces 1..{faces}"
            found.append(StatedBound(1, faces, evidence, False))
    return tuple(found)


def _range_ends(params: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs of ``params`` that name a range's low and high ends (``_RANGE_ENDS``)."""
    pairs = []
    for low_word, high_word in _RANGE_ENDS:
        for low in params:
            words = name_tokens(low)
            wanted = [high_word if w == low_word else w for w in words]
            if low_word in words:
                pairs += [(low, p) for p in params if p != low and name_tokens(p) == wanted]
    return pairs


def _value(side: int | str, args: dict[str, Any]) -> int | None:
    if isinstance(side, int):
        return side
    value = args.get(side)
    return value if type(value) is int else None


def _defaults(fn: Callable[..., Any]) -> dict[str, Any]:
    signature = signature_of(fn)
    if signature is None:
        return {}
    params = signature.parameters.values()
    return {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}


def _gaps(
    bound: StatedBound, observed: Observations, defaults: dict[str, Any]
) -> tuple[float, float] | None:
    """How far below ``low`` and above ``high`` the values seen went (negative: inside)."""
    below: list[float] = []
    above: list[float] = []
    for o in observed.accepted:
        values = numbers_in(o.output)
        if values is None:
            return None
        args = {**defaults, **dict(zip(observed.parameters, o.args, strict=False))}
        low, high = _value(bound.low, args), _value(bound.high, args)
        if not values or low is None or high is None or low > high:
            continue
        below.append(low - min(values))
        above.append(max(values) - high)
    if not below:
        return None
    return max(below), max(above)


def _adopted(bound: StatedBound, observed: Observations, defaults: dict[str, Any]) -> bool:
    gaps = _gaps(bound, observed, defaults)
    if gaps is None or max(gaps) > 1:  # values far outside: the words meant something else
        return False
    return bound.strong or 0 in gaps  # a convention: one side met exactly


def stated(
    fn: Callable[..., Any], observed: Observations, have: Sequence[AppliedProperty]
) -> list[AppliedProperty]:
    """The properties ``fn``'s words state and behaviour nearly agrees with (see the module)."""
    names = {a.property for a in have}
    out: list[AppliedProperty] = []
    for bound in stated_bounds(fn):
        if _adopted(bound, observed, _defaults(fn)) and not _positions(bound, observed):
            options = {"low": bound.low, "high": bound.high}
            out.append(AppliedProperty("bounds", options, "stated", bound.evidence))
            break
    fraction = counted_fraction(fn, observed)
    if fraction is not None:  # a count over its trials: its words are its code
        out = [a for a in out if a.property != "bounds"] + [fraction]
    pi = estimated_pi(fn, observed)
    if pi:
        out = pi
    rolled = rolled_dice(fn, observed)
    if rolled is not None:
        out.append(rolled)
    unreplaced = _unreplaced(fn, have)
    if unreplaced is not None:
        out.append(unreplaced)
    length = _stated_length(fn, observed)
    if length is not None and "length" not in names:
        out.append(length)
    sequences = bool(observed.accepted) and all(
        isinstance(o.output, list | tuple) for o in observed.accepted
    )
    given = observed.takes_lists and not ignores_lists(
        observed.accepted
    )  # a list it draws nothing from
    doc = f"{inspect.getdoc(fn) or ''} {lone_heading(fn)}".lower()
    words = ((_UNIQUE_WORDS, "unique"), (_SORTED_WORDS, "sorted"))
    for pattern, prop in words if sequences else ():
        match = pattern.search(doc)
        rearranged = prop == "unique" and given  # a permutation of a list keeps its repeats
        if match and prop not in names and not rearranged:
            out.append(AppliedProperty(prop, {}, "stated", f"docstring: {match.group(0)!r}"))
    tokens = set(name_tokens(getattr(fn, "__name__", "")))
    drawn = tokens & _LOTTERY
    said = _distinct_by_name(tokens)
    if said and sequences and not given and "unique" not in {a.property for a in out} | names:
        out.append(AppliedProperty("unique", {}, "stated", f"name: {said}"))
    numbered = _numbered_from_one(observed, have) if drawn and sequences and not given else None
    if numbered is not None and not any(a.property == "bounds" for a in out):
        out.append(numbered)
    faces = (
        None if given or any(a.property == "bounds" for a in out) else die_faces(fn, observed, have)
    )
    if faces is not None:
        out.append(faces)
    return out


def _positions(bound: StatedBound, observed: Observations) -> bool:
    """Are a bound's ends only parameters' names (weak) that are the ends of a stretch of a
    list the function takes (``quickselect(arr, lo, hi, k)``: positions, not values)?"""
    ends = index_pair(observed.parameters, [0]) if observed.takes_lists else None
    named = {observed.parameters[i] for i in ends[1:]} if ends else set()
    return not bound.strong and {bound.low, bound.high} == named


def _unreplaced(fn: Callable[..., Any], have: Sequence[AppliedProperty]) -> AppliedProperty | None:
    """``sample`` for a function seen drawing items of its list (``subset``) whose name or
    docstring says it draws them without replacement (``sampleWithOutReplacement``), or
    whose name says it draws a combination or subset, not with replacement: a draw that
    puts items back is consistent with itself, and only the words tell."""
    names = {a.property for a in have}
    if "subset" not in names or names & {"sample", "permutation"}:
        return None
    spoken = " ".join(name_tokens(getattr(fn, "__name__", ""))).replace("with out", "without")
    match = _UNREPLACED_WORDS.search(f"{spoken} {inspect.getdoc(fn) or ''}".lower())
    combined = set(spoken.split()) & _SUBSET if "replacement" not in spoken else set()
    if match is None and not combined:
        return None
    k = next((a.options.get("n") for a in have if a.property == "length"), None)
    evidence = f"name or docstring: {match.group(0)!r}" if match else f"name: {min(combined)}"
    return AppliedProperty("sample", {"k": k} if k else {}, "stated", evidence)


def _stated_length(fn: Callable[..., Any], observed: Observations) -> AppliedProperty | None:
    """``length`` of the parameter a docstring says the output's length is (``len() = d``,
    ``len(result) == n``), adopted where every output seen was within one of it."""
    match = _LENGTH_WORDS.search(inspect.getdoc(fn) or "")
    name = match.group(1) if match else ""
    if name not in observed.parameters or not observed.accepted:
        return None
    at = observed.parameters.index(name)
    for o in observed.accepted:
        count = o.args[at] if len(o.args) > at else None
        if not isinstance(o.output, list | tuple | str) or type(count) is not int:
            return None
        if count >= 0 and abs(len(o.output) - count) > 1:
            return None  # the sentence was about something else
    evidence = f"docstring: {match.group(0)!r}" if match else ""
    return AppliedProperty("length", {"n": name}, "stated", evidence)


def _distinct_by_name(tokens: set[str]) -> str | None:
    """Why a name says its items are distinct (a lottery's draw, a deck, a hand dealt from
    one, a ticket's numbers, a permutation or subset), else ``None``."""
    drawn = tokens & _LOTTERY
    if drawn:
        return f"a {min(drawn)} draws distinct numbers"
    if any(t.startswith("deck") or t.endswith("deck") for t in tokens):
        return "a deck holds each card once"
    if tokens & _DEALT:
        return "a hand dealt from a deck holds each card once"
    if tokens & _TICKET:
        return "a ticket's numbers are drawn without repeats"
    if any(t.endswith("perm") or t.startswith("permutation") for t in tokens):  # randperm
        return "a permutation holds each item once"
    if tokens & _SUBSET:
        return "a subset holds each item once"
    if (tokens & _NO_WORDS and tokens & _REPEAT_WORDS) or tokens & {"unique", "distinct"}:
        return "it says its items are distinct"
    return None


def _numbered_from_one(
    observed: Observations, have: Sequence[AppliedProperty]
) -> AppliedProperty | None:
    """A lottery's numbers start at 1: bounds ``[1, high]`` (``high`` the highest seen, or the
    one inferred), with 1 drawn as often as any number of the range (``reached``)."""
    values = [v for o in observed.accepted for v in (o.output or ())]
    if not values or any(type(v) is not int for v in values):
        return None
    inferred = next((a for a in have if a.property == "bounds"), None)
    if inferred is not None and inferred.options.get("low") == 1:  # seen so: nothing to add
        return None
    high = inferred.options.get("high") if inferred is not None else None
    high = high if isinstance(high, int | float) else max(values)
    evidence = f"name: a lottery's numbers run from 1 (to {high:g} seen), 1 drawn as often as any"
    return AppliedProperty("bounds", {"low": 1, "high": high, "reached": 1}, "stated", evidence)
