"""Cookies the code looks for: each becomes a ``Set-Cookie`` on the response that sets it.

``resp.cookies["sid"]`` reads the cookie of one response, so that response's
stub gets ``Set-Cookie: sid=...``. A lookup in a client's jar
(``"sid" in self.client.cookies``, ``session.cookies.get("sid")``) reads what an
earlier response set: every request the same function sent before the lookup
gets it, as a login method's POST does. The names come from literals or
module constants; nothing is drafted for a name the code does not spell.
"""

from __future__ import annotations

import ast
from typing import Any

from automock.drafting.literals import Ref

__all__ = ["jar_lookup"]


def _looked_up(node: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """``(jar, name)`` for ``name in jar``, ``jar[name]``, ``jar.get(name)``; jar is ``x.cookies``."""
    if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn):
        return node.comparators[0], node.left
    if isinstance(node, ast.Subscript):
        return node.value, node.slice
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
        return (node.func.value, node.args[0]) if node.func.attr == "get" else None
    return None


def jar_lookup(flow: Any, node: ast.expr, env: dict[str, Any]) -> None:
    """Record a cookie ``node`` looks up, on the response(s) that would have set it."""
    found = _looked_up(node)
    if found is None:
        return
    jar, key = found
    if not (isinstance(jar, ast.Attribute) and jar.attr == "cookies"):
        return
    name = flow.module.render(key)
    if not name.complete or not name.text:
        return
    segment = ("attr:cookies", f"key:{name.text}")
    owner = flow.eval(jar.value, env)
    if isinstance(owner, Ref):
        if owner.path == () and not owner.wrap:
            flow.note(Ref(owner.site, segment))
        return
    func = flow.module.enclosing_function(node)
    for call in flow.calls:
        if flow.module.enclosing_function(call) is func and call.lineno <= node.lineno:
            flow.note(Ref(flow.sites[(call.lineno, call.col_offset)], segment))
