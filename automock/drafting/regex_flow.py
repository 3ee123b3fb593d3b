"""Regexes the code searches a response's text with, and other calls on every call.

``re.search(r"Price: (\\d+)", r.text)`` (:func:`automock.drafting.scrape_flow.parse_call`)
and ``AMOUNT.findall(text)`` with ``AMOUNT = re.compile(...)`` record the pattern on the
text searched (:func:`note_regex`), so the drafted text matches it;
:func:`text_calls` runs on every call the flow evaluates.
"""

from __future__ import annotations

import ast
from typing import Any

from automock.drafting.literals import Ref
from automock.drafting.saved_text import note_saved

__all__ = ["compiled", "compiled_regex", "note_regex", "text_calls"]


def _literal(node: ast.expr | None) -> Any:
    try:
        return ast.literal_eval(node) if node is not None else None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def note_regex(flow: Any, target: Any, pattern: Any) -> None:
    """Record that the text at ``target`` is searched with ``pattern``; a second, different
    pattern on the same text is kept too (under ``re:N``), so the drafted text matches each."""
    if not isinstance(target, Ref) or not isinstance(pattern, str):
        return
    key = (target.site, target.path)
    taken = [
        k
        for k in flow.regexes
        if k[0] == target.site
        and (k[1] == key[1] or (k[1][:-1] == key[1] and k[1][-1].startswith("re:")))
    ]
    if any(flow.regexes[k] == pattern for k in taken):
        return
    path = target.path if not taken else (*target.path, f"re:{len(taken)}")
    flow.regexes[(target.site, path)] = pattern


def compiled(made: Any) -> Any:
    """The pattern of ``re.compile(r"...")`` (None for anything else)."""
    if isinstance(made, ast.Call) and ast.unparse(made.func) in ("re.compile", "compile"):
        return _literal(made.args[0]) if made.args else None
    return None


def text_calls(flow: Any, node: ast.Call, env: dict[str, Any]) -> None:
    """Every call: a compiled regex's search, a response's text saved to a named file."""
    compiled_regex(flow, node, env)
    note_saved(flow, node, env)


def compiled_regex(flow: Any, node: ast.Call, env: dict[str, Any]) -> None:
    """``AMOUNT.findall(text)`` with ``AMOUNT = re.compile(r"...")`` at module level.

    The text searched is drafted to match the pattern, as for ``re.findall(r"...", text)``.
    """
    func = node.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and node.args):
        return
    made = flow.module.constants.get(func.value.id)
    if func.attr not in ("search", "match", "findall", "finditer", "fullmatch"):
        return
    pattern = compiled(made)
    if pattern is not None:
        target = flow.eval(node.args[0], env)
        note_regex(flow, target, pattern)
