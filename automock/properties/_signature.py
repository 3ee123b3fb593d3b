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
import textwrap
from collections.abc import Callable
from typing import Any

__all__ = ["function_tree", "parameter_names", "required_parameters", "signature_of"]


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


def required_parameters(fn: Callable[..., Any]) -> tuple[str, ...]:
    """The positional parameters of ``fn`` without a default, in order; empty when its
    signature cannot be read (ask :func:`signature_of` to tell the two apart)."""
    signature = signature_of(fn)
    if signature is None:
        return ()
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return tuple(
        p.name
        for p in signature.parameters.values()
        if p.kind in kinds and p.default is inspect.Parameter.empty
    )


@functools.lru_cache(maxsize=256)
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
