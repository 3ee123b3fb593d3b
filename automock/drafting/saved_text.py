"""A response's text saved to a file and parsed back by the file's name.

``open("dump.xml", "wb").write(r.content)`` then ``ET.parse("dump.xml")``: the parser
reads the response, so what the code reads of the parsed document is drafted into that
response's body (:func:`automock.drafting.scrape_flow.parse_call` asks
:func:`saved_response` for the file's name). So does ``with open("w.csv") as f:
csv.DictReader(f)`` after ``open("w.csv", "wb").write(r.content)``: a CSV body.
"""

from __future__ import annotations

import ast
from typing import Any

from automock.drafting.literals import Ref

__all__ = ["note_saved", "saved_response"]

_TEXT = (("attr:text",), ("attr:content",))


def _saved(flow: Any) -> dict[str, Ref]:
    found: dict[str, Ref] = flow.module.memo.setdefault("saved_text", {})
    return found


def _name(flow: Any, node: ast.expr | None) -> str | None:
    """The literal file name ``node`` stands for (a constant or a module-level one)."""
    if isinstance(node, ast.Name):
        node = flow.module.constants.get(node.id, node)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _opened(flow: Any, handle: ast.expr, writing: bool = True) -> str | None:
    """The file name ``handle`` was opened for writing (or, not ``writing``, for reading):
    ``open(P, "w")`` itself, or a name bound to one (``f = open(P, "wb")``,
    ``with open(P, "w") as f``)."""
    if isinstance(handle, ast.Call) and ast.unparse(handle.func) in ("open", "io.open"):
        mode = handle.args[1] if len(handle.args) > 1 else None
        mode = next((kw.value for kw in handle.keywords if kw.arg == "mode"), mode)
        writes = isinstance(mode, ast.Constant) and any(c in str(mode.value) for c in "wax")
        named = _name(flow, handle.args[0] if handle.args else None)
        return named if writes == writing else None
    if not isinstance(handle, ast.Name):
        return None
    for node in ast.walk(flow.module.tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == handle.id for t in node.targets
        ):
            found = _opened(flow, node.value, writing)
        elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
            bound = node.optional_vars.id == handle.id
            found = _opened(flow, node.context_expr, writing) if bound else None
        else:
            continue
        if found is not None:
            return found
    return None


def note_saved(flow: Any, node: ast.Call, env: dict[str, Any]) -> None:
    """``f.write(r.text)`` with ``f`` opened for writing a named file: remember the response."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "write" and node.args):
        return
    value = flow.eval(node.args[0], env)
    if not isinstance(value, Ref) or value.wrap or value.path[:1] not in (*_TEXT, ()):
        return
    name = _opened(flow, func.value)
    if name is not None:
        _saved(flow).setdefault(name, Ref(value.site, _TEXT[0]))


def saved_response(flow: Any, node: ast.Call) -> Ref | None:
    """The response (its text) saved to the file a parser is given by name, or by a handle
    opened for reading it (``with open("w.csv") as f: csv.DictReader(f)``), None if none."""
    given = node.args[0] if node.args else None
    name = _name(flow, given) or (_opened(flow, given, False) if given is not None else None)
    return _saved(flow).get(name) if name is not None else None
