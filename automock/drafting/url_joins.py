"""A page's link pasted after a base URL that ends in a slash.

``"https://host/" + a["href"]`` and ``f"https://host/{link}"`` join a link to a base that
already ends in ``/``: the page's links are then paths without a leading slash
(``items/1``), or the printed URL would hold ``//``. The attribute read there is drafted
so (a regex on it, :func:`automock.drafting.regex_flow.note_regex`); links the code uses
as they are keep the page's own form (``/items/1``); a link pasted after any site
(``"https://host" + href``) is marked so (:data:`JOINED`): a path, never absolute; one
pasted after a scheme alone (``"https:" + img["src"]``) is protocol-relative (``//host/x``).
"""

from __future__ import annotations

import ast
from typing import Any

from automock.drafting.literals import Ref
from automock.drafting.regex_flow import note_regex

__all__ = ["JOINED", "format_hints", "slash_joins"]

JOINED = "joined"  # beside a link's path in the hints: the code pastes it after a site
_RELATIVE = r"^items/[1-9]\d?$"
# a link pasted after a scheme alone (``"https:" + img["src"]``) is protocol-relative
_SCHEMELESS = r"^//static\.example\.com/items/[1-9]\d?$"


def _base(node: ast.expr | None) -> bool:
    """Whether ``node`` is a literal URL ending in a slash (``"https://host/"``)."""
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and "://" in node.value
        and node.value.endswith("/")
    )


def _site(node: ast.expr | None) -> bool:
    """Whether ``node`` is a literal holding a URL's scheme and host (``"https://host"``)."""
    return isinstance(node, ast.Constant) and "://" in str(node.value)


def _scheme(node: ast.expr | None) -> bool:
    """Whether ``node`` is a literal scheme alone (``"https:"``): what follows is ``//host/...``."""
    return isinstance(node, ast.Constant) and str(node.value).lower() in ("http:", "https:")


def _note(flow: Any, value: Any, slash: bool, regex: str = _RELATIVE) -> None:
    if (
        isinstance(value, Ref)
        and not value.wrap
        and value.path[:1] in (("html",), ("xml",))
        and value.path[-1].startswith("key:")
    ):
        flow.hints[(value.site, (*value.path, JOINED))] = "joined"  # a path, never absolute
        if slash:
            note_regex(flow, value, regex)


def slash_joins(flow: Any, node: ast.BinOp, env: dict[str, Any]) -> None:
    """``"https://host/" + a["href"]``: that attribute is a path without a leading slash."""
    if isinstance(node.op, ast.Add) and _site(node.left):
        _note(flow, flow.eval(node.right, env), _base(node.left))
    elif isinstance(node.op, ast.Add) and _scheme(node.left):
        _note(flow, flow.eval(node.right, env), True, _SCHEMELESS)


def format_hints(flow: Any, node: ast.JoinedStr, env: dict[str, Any]) -> None:
    """An f-string's values: the type a format spec asks of each (``{x:.1f}`` a float,
    ``{n:d}`` an integer) and a link pasted right after a base URL ending in ``/``."""
    previous: ast.expr | None = None
    for part in node.values:
        if isinstance(part, ast.FormattedValue):
            value = flow.eval(part.value, env)
            spec = ast.unparse(part.format_spec) if part.format_spec else ""
            if isinstance(value, Ref) and spec:
                kind = spec.rstrip("'\"")[-1:]
                flow.note(value, "float" if kind in "fFeEg%" else "int" if kind in "dxob" else None)
            if _site(previous):
                _note(flow, value, _base(previous))
        previous = part
