"""A function that rolls dice: its values must be the sum of that many fair dice.

A roll of two dice that adds the first die twice (``d1 + d1``) still returns values
from 2 to 12, so bounds cannot see it; what it breaks is the shape of the sum (only
even values, 2 and 12 six times too often). A careful engineer checks a dice roller
against the obvious model: ``k`` six-sided dice (a die's faces when nothing names them)
summed. :func:`rolled_dice` proposes that model for a function of no arguments whose
name says it rolls a die or dice (``roll_die``, ``roll2dice``, ``rollDice``; ``roll_d20``
names a die of 20 faces), that
draws ``k`` times outside any loop (``randint``, ``randrange``, ``choice``: the number
of dice is read from the code, never its ranges, which are what an off-by-one moves),
whose name's number, if any, is ``k``, and whose values seen lie within one of
``[k, N k]`` and meet one of its ends: a zero-based die is left alone. A roller called
at its defaults (``roll_dice(n=2)``, ``roll(howmany=1, sides=6)``) whose code adds a draw
up in a loop over ``range(n)`` is the sum of ``n`` fair dice, ``n`` its count's default.
:func:`dice_fairness` then compares the values of many seeded runs with the
distribution of the sum (chi-square, tails pooled below five expected counts).
"""

from __future__ import annotations

import ast
import inspect
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from automock.properties._signature import (
    FACE_WORDS,
    called_name,
    function_tree,
    parameter_names,
    signature_of,
)
from automock.properties.distribution import (
    DistributionResult,
    Raised,
    chi_square_statistic,
    observe_runs,
    raised_result,
    verdict,
)
from automock.properties.infer import AppliedProperty, name_tokens
from automock.properties.observe import Observations

__all__ = ["dice_fairness", "die_faces", "rolled_dice", "sum_distribution"]

# a die in English, and in Portuguese, Spanish and Italian (``simular_dado``), French
# (``dé``, ``dés``) and German (``Würfel``)
_DIE_WORDS = frozenset({"die", "dice", "dices", "dado", "dados", "dadi", "dé", "dés"})
_DIE_WORDS |= {"würfel", "wurfel", "wuerfel"}
_THROWS = frozenset({"lancer", "lance", "jeter", "jette"})  # lancer_des: French dice, unaccented
_DRAWS = frozenset({"randint", "randrange", "choice"})
_LOOPS: tuple[type[ast.AST], ...] = (ast.For, ast.While, ast.AsyncFor, ast.ListComp)
_LOOPS += (ast.SetComp, ast.GeneratorExp, ast.DictComp)
FACES = 6  # a die whose faces nothing names


def _words(name: str) -> tuple[list[str], list[int]]:
    """The words and numbers of a name (``roll2dice`` -> roll, dice and 2)."""
    words: list[str] = []
    numbers: list[int] = []
    for token in name_tokens(name):
        words += [w for w in re.split(r"\d+", token) if w]
        numbers += [int(n) for n in re.findall(r"\d+", token)]
    return words, numbers


def _draw_count(fn: Callable[..., Any]) -> int | None:
    """How many draws ``fn``'s code makes, each once per call; None if one is in a loop."""
    tree = function_tree(fn)
    if tree is None:
        return None
    count = 0

    def visit(node: ast.AST, looped: bool) -> bool:
        nonlocal count
        if _drawn(node):
            if looped:
                return False
            count += 1
        inner = looped or isinstance(node, _LOOPS)
        return all(visit(child, inner) for child in ast.iter_child_nodes(node))

    return count if visit(tree, False) else None


def rolled_dice(fn: Callable[..., Any], observed: Observations) -> AppliedProperty | None:
    """``uniform`` of the sum of ``k`` fair dice, for a dice roller (see the module)."""
    if observed.parameters or not observed.accepted:
        return None
    if not all(type(o.output) is int for o in observed.accepted):
        return None
    summed = _summed_at_defaults(fn)
    if summed is not None:
        return summed
    name = getattr(fn, "__name__", "")
    words, numbers = _words(name)
    sized = _die_numbers(name_tokens(name))
    faces = sized[0] if sized and sized[0] >= 2 else FACES
    if sized:  # roll_d20: its number is the faces, not a count of dice
        numbers.remove(sized[0])
    elif not _speaks_of_dice(fn, words):
        return None
    dice = _draw_count(fn)
    if not dice or any(n != dice for n in numbers):
        return None
    values = [o.output for o in observed.accepted]
    if not all(type(v) is int for v in values):
        return None
    low, high = dice, dice * faces
    if min(values) < low - 1 or max(values) > high + 1:
        return None
    if low not in values and high not in values:
        return None
    evidence = f"name: a roll of dice; {dice} draw(s) in its code: the sum of {dice} fair d{faces}"
    return AppliedProperty("uniform", {"dice": dice, "faces": faces}, "stated", evidence)


def _speaks_of_dice(fn: Callable[..., Any], words: list[str]) -> bool:
    """Do ``fn``'s name words or its docstring speak of dice (``roll_dice``, ``lancer_des``;
    "renvoie la somme de deux dés")?"""
    if _DIE_WORDS & set(words) or (_THROWS & set(words) and "des" in words):
        return True
    return bool(_DIE_WORDS & set(re.findall(r"[^\W\d_]+", (inspect.getdoc(fn) or "").lower())))


def _summed_at_defaults(fn: Callable[..., Any]) -> AppliedProperty | None:
    """``uniform`` of ``k`` fair dice for a roller called at its defaults whose code adds a
    draw up in a loop over ``range(count)`` (``for _ in range(n): total += randint(1, 6)``),
    ``count`` its one parameter with an int default that is no die's faces (``k`` that
    default), and that speaks of dice (its name, a ``sides`` parameter, its docstring)."""
    signature = signature_of(fn)
    tree = function_tree(fn)
    if signature is None or tree is None:
        return None
    defaults = {p.name: p.default for p in signature.parameters.values()}
    faced = {n for n in defaults if set(name_tokens(n)) & FACE_WORDS}  # sides, num_sides
    counts = [n for n, d in defaults.items() if type(d) is int and n not in faced]
    if len(counts) != 1 or defaults[counts[0]] < 1:
        return None
    dice, count = defaults[counts[0]], counts[0]
    named = [d for n, d in defaults.items() if n in faced and type(d) is int]
    faces = named[0] if named else (_faces_named(fn) or FACES)
    words = _words(getattr(fn, "__name__", ""))[0]
    if _faces_named(fn) is None and not named and not _speaks_of_dice(fn, words):
        return None  # nothing says these are dice
    sides = _literal_faces(tree, count)
    if sides is None or (sides and abs(sides - faces) > 1):
        return None  # no summed draw, or a die of other faces than the name's
    evidence = (
        f"a roll of dice at its defaults: a draw added up {count}={dice} times in its code, "
        f"the sum of {dice} fair d{faces}"
    )
    return AppliedProperty("uniform", {"dice": dice, "faces": faces}, "stated", evidence)


def _literal_faces(tree: ast.AST, count: str) -> int | None:
    """The faces a draw added up in a loop over ``range(...count...)`` spells with numbers
    (``randint(1, 6)``: 6, ``randrange(1, 7)``: 6), 0 when it spells them otherwise
    (``randint(1, sides)``); None when no such draw is found."""
    for loop in ast.walk(tree):
        if not isinstance(loop, ast.For) or not _ranges_over(loop.iter, count):
            continue
        for node in (n for stmt in loop.body for n in ast.walk(stmt)):
            if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
                draw = next((c for c in ast.walk(node.value) if _drawn(c)), None)
                if isinstance(draw, ast.Call):
                    return _spelled_faces(draw)
    return None


def _ranges_over(node: ast.expr, count: str) -> bool:
    """Is ``node`` ``range(...)`` with ``count`` among its arguments' names?"""
    if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "range"):
        return False
    return any(isinstance(n, ast.Name) and n.id == count for n in ast.walk(node))


def _drawn(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and called_name(node) in _DRAWS


def _spelled_faces(draw: ast.Call) -> int:
    """The faces ``randint(1, N)`` (N) or ``randrange(1, N)`` (N - 1) spells; 0 otherwise."""
    args = [a.value if isinstance(a, ast.Constant) else None for a in draw.args]
    if len(args) != 2 or args[0] != 1 or type(args[1]) is not int:
        return 0
    return int(args[1]) - (1 if called_name(draw) == "randrange" else 0)


def _die_numbers(tokens: list[str]) -> list[int]:
    """The ``N`` of each ``dN`` word among ``tokens`` (``roll_d20``: 20), in order."""
    return [int(t[1:]) for t in tokens if re.fullmatch(r"d\d+", t)]


def _faces_named(fn: Callable[..., Any]) -> int | None:
    """The faces of the die ``fn``'s name or parameters speak of: ``N`` for a ``dN`` word
    (``roll_d6``, ``d20``), :data:`FACES` for a die or dice word (``num_dice``); else None."""
    names = [getattr(fn, "__name__", ""), *parameter_names(fn)]
    tokens = [t for name in names for t in name_tokens(name)]
    sized = [n for n in _die_numbers(tokens) if n >= 2]
    if sized:
        return sized[0]
    return FACES if any(t in _DIE_WORDS for t in tokens) else None


def die_faces(
    fn: Callable[..., Any], observed: Observations, have: Sequence[AppliedProperty]
) -> AppliedProperty | None:
    """``bounds [1, N]`` for a list of rolls of a die whose name says its faces (``roll_d6``,
    ``roll(num_dice)``: a die's faces are numbered 1 to N, 6 when nothing names them), where
    every value seen is an int within one of that range (a list of sums of several dice
    is not one die's faces); None when the bounds inferred already say so."""
    faces = _faces_named(fn)
    outputs = [o.output for o in observed.accepted]
    if faces is None or not outputs or not all(isinstance(v, list) for v in outputs):
        return None
    values = [v for out in outputs for v in out]
    if not values or any(type(v) is not int or not 0 <= v <= faces + 1 for v in values):
        return None
    inferred = next((a for a in have if a.property == "bounds"), None)
    if inferred is not None and (inferred.options.get("low"), inferred.options.get("high")) == (
        1,
        faces,
    ):
        return None
    evidence = f"name: a die of {faces} faces, numbered 1 to {faces}"
    return AppliedProperty("bounds", {"low": 1, "high": faces}, "stated", evidence)


def sum_distribution(dice: int, faces: int) -> dict[int, float]:
    """The probability of each sum of ``dice`` fair dice of ``faces`` faces."""
    probabilities = {0: 1.0}
    for _ in range(dice):
        step: dict[int, float] = {}
        for total, p in probabilities.items():
            for face in range(1, faces + 1):
                step[total + face] = step.get(total + face, 0.0) + p / faces
        probabilities = step
    return probabilities


def dice_fairness(
    roll: Callable[[], Any],
    dice: int,
    faces: int = FACES,
    *,
    runs: int = 2000,
    seed: int = 0,
    alpha: float = 1e-3,
) -> DistributionResult:
    """Are ``runs`` seeded values of ``roll()`` the sum of ``dice`` fair ``faces``-sided dice?"""
    model = sum_distribution(dice, faces)
    try:
        outcomes = observe_runs(roll, runs, seed)
    except Raised as raised:
        return raised_result("uniform", len(model) - 1, alpha, runs, raised)
    for outcome in outcomes:
        if outcome not in model:
            detail = f"{outcome!r} is not a sum of {dice} dice of {faces} faces"
            return DistributionResult("uniform", False, float("inf"), 1, 0.0, alpha, runs, detail)
    counts = Counter(outcomes)
    cells: list[tuple[list[int], float]] = []  # values pooled until five are expected
    pending: list[int] = []
    mass = 0.0
    for value in sorted(model):
        pending.append(value)
        mass += model[value]
        if mass * runs >= 5:
            cells.append((pending, mass))
            pending, mass = [], 0.0
    if pending and cells:
        last, last_mass = cells.pop()
        cells.append((last + pending, last_mass + mass))
    if len(cells) < 2:
        return verdict("uniform", 0.0, 1, alpha, runs, {}, shape="a sum of fair dice")
    observed = [float(sum(counts[v] for v in values)) for values, _ in cells]
    expected = [p * runs for _, p in cells]
    statistic = chi_square_statistic(observed, expected)
    worst = max(range(len(cells)), key=lambda i: abs(observed[i] - expected[i]) / expected[i])
    cell = {"values": cells[worst][0], "observed": observed[worst], "expected": expected[worst]}
    shape = f"the sum of {dice} fair d{faces}"
    return verdict("uniform", statistic, len(cells) - 1, alpha, runs, cell, shape=shape)
