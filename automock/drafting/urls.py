"""Turn the URL argument of an HTTP call into a stub pattern.

- a literal or a fully resolved f-string/concatenation (module constants are
  followed: ``f"{API}/current"`` with ``API = "https://..."``) becomes a
  ``prefix`` pattern, so query strings added by ``params=`` still match;
- a URL with unresolved parts in the middle (``f"{BASE}/repos/{name}/tags"``)
  becomes an anchored ``regex`` with ``[^/?#]+`` for each unknown part;
- a URL with an unknown tail (``f"{BASE}/repos/{name}"``) becomes the
  ``prefix`` up to the unknown part;
- nothing resolvable: a catch-all regex, marked as guessed.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from automock.drafting._source import PLACEHOLDER, Module

__all__ = [
    "UrlPattern",
    "method_of",
    "pattern_of_parts",
    "request_method",
    "url_argument",
    "url_pattern",
]

HTTP_METHODS = ("get", "post", "put", "patch", "delete", "head", "options")
_CONNECTIONS = {"HTTPConnection": "http", "HTTPSConnection": "https"}  # http.client


@dataclass(frozen=True, slots=True)
class UrlPattern:
    url: str
    match: str  # exact | prefix | regex
    guessed: bool = False


def method_of(call: ast.Call) -> str:
    """The HTTP method of a call like ``requests.post(...)`` or ``client.request("PUT", ...)``."""
    name = call.func.attr if isinstance(call.func, ast.Attribute) else ""
    if name.lower() in HTTP_METHODS:
        return name.upper()
    if name in ("request", "stream", "fetch") and call.args:
        first = call.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value.upper()
    for kw in call.keywords:
        if (
            kw.arg == "method"
            and isinstance(kw.value, ast.Constant)
            and isinstance(kw.value.value, str)
        ):
            return kw.value.value.upper()
    return "GET" if name in ("urlopen", "Request") else "*"


def request_method(module: Module, call: ast.Call) -> str:
    """:func:`method_of`, and for ``urlopen(req)`` the method of the ``Request`` it opens:
    its ``method=``, else POST when it carries data (``Request(url, data)``), as urllib sends."""
    name = call.func.attr if isinstance(call.func, ast.Attribute) else ""
    name = name or (call.func.id if isinstance(call.func, ast.Name) else "")
    if name != "urlopen" or not call.args:
        return method_of(call)
    first = call.args[0]
    built = module.bound_value(first) if isinstance(first, ast.Name) else first
    if not isinstance(built, ast.Call) or not ast.unparse(built.func).endswith("Request"):
        return method_of(call)
    if any(kw.arg == "method" for kw in built.keywords):
        return method_of(built)
    data = len(built.args) > 1 or any(kw.arg == "data" for kw in built.keywords)
    return "POST" if data else method_of(call)


def url_argument(call: ast.Call) -> ast.expr | None:
    """The expression that holds the URL in an HTTP call."""
    for kw in call.keywords:
        if kw.arg == "url":
            return kw.value
    name = call.func.attr if isinstance(call.func, ast.Attribute) else ""
    if name in ("request", "stream") and len(call.args) >= 2:
        return call.args[1]
    return call.args[0] if call.args else None


def url_pattern(module: Module, call: ast.Call) -> UrlPattern:
    node = url_argument(call)
    if node is None:
        return UrlPattern(url=".*", match="regex", guessed=True)
    parts = module.render(node).parts
    base = _connection_base(module, call)
    if base and parts[0].startswith("/"):  # ``conn.request("GET", "/posts")``: on its host
        parts = [base + parts[0], *parts[1:]]
    return pattern_of_parts(parts)


def _connection_base(module: Module, call: ast.Call) -> str:
    """``http://host:port`` of an http.client connection a ``conn.request(...)`` is sent on
    (``conn = http.client.HTTPConnection("localhost", 8000)``), else ""."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "request"):
        return ""
    if not isinstance(func.value, ast.Name | ast.Attribute):
        return ""
    receiver = ast.unparse(func.value)
    for node in ast.walk(module.tree):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        made = node.value
        name = made.func.attr if isinstance(made.func, ast.Attribute) else ""
        name = name or (made.func.id if isinstance(made.func, ast.Name) else "")
        if name not in _CONNECTIONS or not made.args:
            continue
        if any(ast.unparse(t) == receiver for t in node.targets):
            host = module.render(made.args[0]).text
            port = made.args[1] if len(made.args) > 1 else None
            port = next((kw.value for kw in made.keywords if kw.arg == "port"), port)
            number = port.value if isinstance(port, ast.Constant) else ""
            if PLACEHOLDER in host or not host:
                return ""
            return f"{_CONNECTIONS[name]}://{host}{f':{number!s}' if number else ''}"
    return ""


def pattern_of_parts(parts: list[str]) -> UrlPattern:
    """The stub pattern for a URL known as literal parts around unknown ones."""
    if len(parts) == 1 and parts[0].startswith(("http://", "https://")):
        # the query is left out: the client may encode or reorder it, and params= add to it
        return UrlPattern(url=parts[0].split("?", 1)[0].split("#", 1)[0], match="prefix")
    if len(parts) == 1:  # relative to a client's base_url
        parts = ["", parts[0]]
    head, tail = parts[0], parts[-1]
    if not head.startswith(("http://", "https://")):
        # ``scheme + "://" + host + path``: the pattern's own ``https?://`` stands for it
        parts = [
            p.split("://", 1)[1] if "://" in p and not p.startswith("http") else p for p in parts
        ]
        literal = [p for p in parts if p.strip("/?&=")]
        if not literal:
            return UrlPattern(url=".*", match="regex", guessed=True)
        # an unknown base (a parameter, an attribute): anchor on the literal path parts
        pattern = "[^?#]*".join(re.escape(p) for p in parts)
        return UrlPattern(url=f"^https?://[^?#]*{pattern}(?:[?#]|$)", match="regex")
    if all(p == "" for p in parts[1:]) or (len(parts) == 2 and tail.startswith(("?", "#"))):
        path = head.split("://", 1)[1].partition("/")[2]
        if path and not head.endswith("/") and all(p == "" for p in parts[1:]):
            # ``base + "_" + n``: the unknown part goes on inside the last segment, which a
            # prefix stub (the path at or below its own) would never answer
            return UrlPattern(url=f"^{re.escape(head)}[^?#]*(?:[?#]|$)", match="regex")
        return UrlPattern(url=head, match="prefix")
    pattern = "^" + "[^/?#]+".join(re.escape(p) for p in parts)
    return UrlPattern(url=pattern, match="regex")
