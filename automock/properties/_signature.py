"""One reading of a function's signature and source, shared by every module of the checker.

The checker asks for the parameters of the function it checks many times (once
per proposal, per call bound, per generated input); :func:`signature_of` reads
them once per function and answers ``None`` for a callable with no readable
signature (a builtin written in C, a class with an odd ``__init__``).
:func:`function_tree` does the same for the syntax tree of its source, which
several proposals read (draws in loops, returned names, ``return None``), and
answers ``None`` where the source cannot be had (a builtin, code typed at a prompt).
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
import textwrap
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "COUNT_WORDS_ELSEWHERE",
    "FACE_WORDS",
    "called_name",
    "dimension_named",
    "driven_parameters",
    "function_tree",
    "name_tokens",
    "parameter_names",
    "signature_of",
    "size_named",
    "sizes_output",
    "trial_named",
    "type_hints",
]

# a parameter's words that say it counts what the function makes (its output's size)
_SIZE_WORDS = frozenset({"length", "len", "size", "count", "num", "number", "amount", "quantity"})
# abbreviations and other languages' words for a count (``nb_elements``, ``cantidad``)
COUNT_WORDS_ELSEWHERE = frozenset(
    {"qty", "nb", "nbr", "nombre", "cantidad", "quantidade", "anzahl"}
)
_SIZE_WORDS |= COUNT_WORDS_ELSEWHERE
# a die's faces (``sides=6``), varied as a count is: its bound is the parameter
FACE_WORDS = frozenset({"sides", "faces", "side", "face"})
# ... and words that say it counts the trials an estimate averages over instead
_TRIAL_WORDS = frozenset(
    {"samples", "trials", "iterations", "iters", "simulations", "sims", "points", "darts"}
    | {"throws", "runs", "rounds", "games", "steps", "epochs", "generations", "tries"}
)
_MAX_COUNT = 1000  # a default count above this is a workload, not a size


@functools.lru_cache(maxsize=256)
def _cached(fn: Callable[..., Any]) -> inspect.Signature | None:
    return _read(fn)


def _read(fn: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def signature_of(fn: Callable[..., Any]) -> inspect.Signature | None:
    """``fn``'s signature, or ``None`` when it cannot be read; cached per function."""
    try:
        return _cached(fn)
    except TypeError:  # an unhashable callable: read it each time
        return _read(fn)


def parameter_names(fn: Callable[..., Any]) -> tuple[str, ...]:
    """The names of ``fn``'s parameters in order; empty when its signature cannot be read."""
    signature = signature_of(fn)
    return tuple(signature.parameters) if signature is not None else ()


def driven_parameters(fn: Callable[..., Any]) -> tuple[inspect.Parameter, ...]:
    """The positional parameters the checker gives values to, in order; empty when ``fn``'s
    signature cannot be read (ask :func:`signature_of` to tell the two apart).

    Those without a default, and then each next one whose default is a count of what the
    function makes or a die's faces (``generate_token(length=30)``, ``dice(sides=6,
    number=1)``, ``roll(num_dice=1, num_sides=6)``): left
    at its default, a token one character short would be one short at every call, a bug
    consistent with itself. A default of 0 (often "none" or "all"), a count of trials or
    iterations (what an estimate averages over: fewer is only noisier) and any parameter
    after one left at its default are left at their defaults."""
    signature = signature_of(fn)
    if signature is None:
        return ()
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    driven = []
    for p in signature.parameters.values():
        if p.kind not in kinds or not (p.default is inspect.Parameter.empty or _made_count(p)):
            break
        driven.append(p)
    return tuple(driven)


def _made_count(p: inspect.Parameter) -> bool:
    return (
        type(p.default) is int
        and 1 <= p.default <= _MAX_COUNT
        and (size_named(p.name) or bool(set(name_tokens(p.name)) & FACE_WORDS))
        and not trial_named(p.name)
    )


def trial_named(name: str) -> bool:
    """Does a parameter's name say it counts trials an estimate averages over (``n_samples``,
    ``iterations``, ``num_throws``), not what the function makes?"""
    return bool(set(name_tokens(name)) & _TRIAL_WORDS)


def type_hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """``fn``'s annotations that are types, by parameter name (``"return"`` for the return).

    ``typing.get_type_hints`` where it can resolve them all; else, annotation by annotation,
    those already objects (string ones unresolved are left out). An annotation that is no
    type at all (``def bogo_sort(arr: [])``, ``n: 5``) is left out too: the parameter is then
    read as unannotated, from its name and use, instead of being refused by Hypothesis.
    """
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # an unresolvable or unparsable string annotation
        raw = getattr(fn, "__annotations__", None)
        hints = (
            {k: v for k, v in raw.items() if not isinstance(v, str)}
            if isinstance(raw, dict)
            else {}
        )
    return {name: hint for name, hint in hints.items() if _is_type_hint(hint)}


def _is_type_hint(hint: Any) -> bool:
    return (
        isinstance(hint, type | typing.TypeVar)
        or typing.get_origin(hint) is not None
        or hint is typing.Any
        or hasattr(hint, "__supertype__")  # a NewType
    )


# the sides of a grid the function makes: a matrix of `rows` by `cols` (in several languages)
_DIMENSION_WORDS = frozenset({"rows", "cols", "columns", "width", "height", "nrows", "ncols"})
_DIMENSION_WORDS |= {"filas", "columnas", "linhas", "colunas", "righe", "colonne", "lignes"}
_DIMENSION_WORDS |= {"colonnes", "zeilen", "spalten", "dim", "dims", "dimension"}


def dimension_named(name: str) -> bool:
    """Does a parameter's name say it is a side of a grid the function makes (``rows``,
    ``n_cols``, ``width``)?"""
    return bool(set(name_tokens(name)) & _DIMENSION_WORDS)


def size_named(name: str) -> bool:
    """Does a parameter's name say it is the size of what the function makes (``length``,
    ``num_chars``, ``quantity``), not a count of something else (a bare ``n`` may count
    steps)?"""
    return bool(set(name_tokens(name)) & _SIZE_WORDS)


def sizes_output(name: str) -> bool:
    """Is ``name`` the size of the output: :func:`size_named`, or a bare ``n``?"""
    return name == "n" or size_named(name)


def name_tokens(name: str) -> list[str]:
    """The lower-case words of a snake_case or camelCase name."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return [t for t in spaced.lower().split("_") if t]


@functools.lru_cache(maxsize=256)
def called_name(call: ast.Call) -> str:
    """The name a call calls: ``randint`` for ``random.randint(...)`` and ``randint(...)``."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _cached_tree(fn: Any) -> ast.Module | None:
    return _parse(fn)


def _parse(fn: Any) -> ast.Module | None:
    try:
        return ast.parse(textwrap.dedent(inspect.getsource(inspect.unwrap(fn))))
    except (OSError, TypeError, SyntaxError, ValueError):
        return None


def function_tree(fn: Any) -> ast.Module | None:
    """The syntax tree of ``fn``'s source (a function, unwrapped, or a code object), or
    ``None`` when its source cannot be read or parsed; cached per function. Callers only
    read the tree."""
    try:
        return _cached_tree(fn)
    except TypeError:  # an unhashable callable: parse it each time
        return _parse(fn)


def module_source(fn: Any) -> tuple[str, str]:
    """The name and text of the file ``fn`` was defined in (``("", "")`` where unreadable)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return "", ""
    path = Path(code.co_filename)
    try:
        return path.name, path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return path.name, ""


def lone_heading(fn: Any) -> str:
    """The heading (docstring, else leading comment lines) of the module ``fn`` was defined
    in, when it defines no other top-level function or class: the function's doc then."""
    _, source = module_source(fn)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return ""
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    if sum(isinstance(node, kinds) for node in tree.body) != 1:
        return ""
    doc = ast.get_docstring(tree)
    if doc:
        return doc
    lines = []
    for line in source.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            break
        lines.append(line.lstrip("# ").strip())
    return " ".join(lines)
