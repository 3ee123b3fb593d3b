"""Which requests a drafted stub answers, beyond its URL pattern.

- a request sent with one of several literal values (``for city in ["Oslo", "Lima"]:
  get(URL, params={"q": city})``, a URL picked from a literal list, an f-string part)
  gets one stub per value, its pattern (or ``query`` matcher) naming the value;
- a fully literal URL with a query string (``.../price?symbol=ADAUSDT``) answers that
  query only (the stub's URL leaves the query out, so two such calls to one path would
  otherwise share one stub), and a response field named like one of its parameters
  echoes the value (``{"symbol": "ADAUSDT"}``): the API answers about what it was asked;
- a literal form, JSON or query dict the call sends (``data=``, ``json=``, ``params=``) is
  what an echo service answers under ``form``, ``json`` and ``args`` (httpbin, postman-echo).
"""

from __future__ import annotations

import ast
import re
from typing import Any
from urllib.parse import parse_qsl, quote_plus

from automock.drafting._source import PLACEHOLDER, Module
from automock.drafting.urls import UrlPattern, pattern_of_parts, url_argument
from automock.plan.model import HttpStub

__all__ = ["literal_query", "sent_payload", "variant_pattern"]


def variant_pattern(
    flow: Any,
    call: ast.Call,
    variant: tuple[str, str, tuple[str, ...]],
    value: str,
    pattern: UrlPattern,
) -> tuple[UrlPattern, dict[str, str]]:
    """The URL pattern (and query matcher) of the stub for one literal value of a request."""
    kind, where, _ = variant
    if kind == "url":
        return pattern_of_parts([value]), {}
    if kind == "query" and pattern.match == "prefix":
        if "query" in HttpStub.__dataclass_fields__:
            return pattern, {where: value}
        pair = re.escape(f"{quote_plus(where)}={quote_plus(value)}")
        return UrlPattern(f"^{re.escape(pattern.url)}[^#]*[?&]{pair}(?:[&#]|$)", "regex"), {}
    node = url_argument(call)
    if kind == "path" and isinstance(node, ast.JoinedStr):
        text = "".join(
            value
            if str(i) == where
            else flow.module.render(
                part.value if isinstance(part, ast.FormattedValue) else part
            ).text
            for i, part in enumerate(node.values)
        )
        return pattern_of_parts(text.split(PLACEHOLDER)), {}
    return pattern, {}


def literal_query(module: Module, call: ast.Call, pattern: UrlPattern) -> dict[str, str]:
    """The parameters of a fully literal URL's query string (module docstring), else {}."""
    node = url_argument(call)
    if node is None or pattern.match != "prefix" or pattern.guessed:
        return {}
    rendered = module.render(node)
    if not rendered.complete or "?" not in rendered.text:
        return {}
    pairs = parse_qsl(rendered.text.split("?", 1)[1].split("#", 1)[0])
    found = dict(pairs)
    return found if len(found) == len(pairs) else {}


_ECHOED = {"data": "form", "json": "json", "params": "args"}


def sent_payload(module: Module, call: ast.Call) -> dict[str, Any]:
    """The literal dicts ``call`` sends, under the keys an echo service answers them with
    (module docstring); a form's values as the text a form sends."""
    out: dict[str, Any] = {}
    for kw in call.keywords:
        node = (
            module.constants.get(kw.value.id, kw.value)
            if isinstance(kw.value, ast.Name)
            else kw.value
        )
        try:
            value = ast.literal_eval(node) if kw.arg in _ECHOED else None
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
        if isinstance(value, dict) and kw.arg is not None:
            text = kw.arg != "json"
            out[_ECHOED[kw.arg]] = {str(k): str(v) if text else v for k, v in value.items()}
    return out
