"""Which calls are HTTP requests, judged from names: modules, aliases, client types.

``requests.get(url)`` and ``from httpx import post; post(url)`` are decided
by their qualified names alone. A method call on an object
(``session.get(url)``) is not: :func:`classify_call` hands back the receiver,
and :class:`automock.drafting.flow.ResponseFlow` decides from what it knows
that receiver holds (a client built from :data:`CLIENT_TYPES`, a response),
falling back to :func:`named_like_client`.
"""

from __future__ import annotations

import ast

from automock.drafting.urls import HTTP_METHODS

__all__ = [
    "CALL_NAMES",
    "CLIENT_NAMES",
    "CLIENT_STATE",
    "CLIENT_TYPES",
    "HTTP_MODULES",
    "classify_call",
    "import_aliases",
    "named_like_client",
    "qualname",
]

HTTP_MODULES = ("requests", "httpx", "urllib.request", "urllib3", "aiohttp")
CLIENT_TYPES = (
    "requests.Session",
    "requests.session",
    "httpx.Client",
    "httpx.AsyncClient",
    "aiohttp.ClientSession",
    "urllib3.PoolManager",
    "http.client.HTTPConnection",
    "http.client.HTTPSConnection",
)
# a client's state: ``s.headers.get(...)``, ``s.cookies.get(...)`` read it, they send nothing
CLIENT_STATE = frozenset(("headers", "cookies", "params", "auth", "adapters", "hooks", "proxies"))
CLIENT_NAMES = ("client", "session", "http", "sess", "api", "conn")
CALL_NAMES = (*HTTP_METHODS, "request", "stream", "urlopen")


def import_aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> qualified name for every absolute import in ``tree``."""
    aliases: dict[str, str] = {}
    starred: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    aliases[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if alias.name == "*":
                    starred.append(node.module)
                else:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    if len(starred) == 1:  # ``from M import *``: a name used but bound nowhere else is M's
        aliases.update({name: f"{starred[0]}.{name}" for name in _unbound(tree, aliases)})
    # ``cElementTree``: the old name of ElementTree's C version, the same functions
    return {k: v.replace(".cElementTree", ".ElementTree") for k, v in aliases.items()}


def _unbound(tree: ast.Module, imported: dict[str, str]) -> set[str]:
    """Names read in ``tree`` that nothing in it binds: not assigned, defined, a parameter,
    imported or a builtin (what a lone star import must have brought in)."""
    import builtins

    bound = set(imported) | set(dir(builtins))
    read: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            bound.update(node.names)
    return read - bound


def qualname(node: ast.expr, aliases: dict[str, str]) -> str:
    """``node`` as a dotted name with import aliases expanded ("" if it is not one)."""
    if isinstance(node, ast.Name):
        return aliases.get(node.id, node.id)
    if isinstance(node, ast.Attribute):
        return f"{qualname(node.value, aliases)}.{node.attr}"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return ""


def classify_call(call: ast.Call, aliases: dict[str, str]) -> bool | ast.expr:
    """Whether names alone make ``call`` an HTTP request; else the receiver to judge.

    The receiver is returned for ``x.get(...)``-like calls (a method named
    like a request on something that is not an HTTP module).
    """
    func = call.func
    if isinstance(func, ast.Name):
        qual = aliases.get(func.id, "")
        return qual.rpartition(".")[0] in HTTP_MODULES and qual.rpartition(".")[2] in CALL_NAMES
    if not isinstance(func, ast.Attribute) or func.attr not in CALL_NAMES:
        return False
    if qualname(func.value, aliases) in HTTP_MODULES:
        return True
    return func.value


def named_like_client(receiver: ast.expr, call: ast.Call) -> bool:
    """``client.get(url)``, ``self._session.post(url)``: the receiver's name says HTTP client."""
    name = (
        receiver.id
        if isinstance(receiver, ast.Name)
        else receiver.attr
        if isinstance(receiver, ast.Attribute)
        else ""
    )
    return name.lower().strip("_") in CLIENT_NAMES and bool(call.args)
