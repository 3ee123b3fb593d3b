"""Whether a call talks JSON with its server: a body read only as text is then drafted as JSON.

``print(response.text)`` says nothing of the body's form, but the request may: a
``json=`` payload, a ``Content-Type`` or ``Accept`` header of ``application/json`` (on the
call, or anywhere in the module: a session's default headers), or another call to the
same host sending JSON. An API that takes JSON answers with it; so does one whose URL
says it is an API (``api.`` host, ``/api/`` path).
"""

from __future__ import annotations

import ast
from urllib.parse import urlsplit

from automock.drafting._source import Module
from automock.drafting.urls import url_pattern

__all__ = ["speaks_json"]

_HEADERS = ("content-type", "accept")


def _says_json(node: ast.AST) -> bool:
    """A dict literal in ``node`` with a JSON ``Content-Type``/``Accept`` header."""
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Dict):
            continue
        for key, value in zip(sub.keys, sub.values, strict=False):
            if (
                isinstance(key, ast.Constant)
                and str(key.value).lower() in _HEADERS
                and isinstance(value, ast.Constant)
                and "json" in str(value.value).lower()
            ):
                return True
    return False


def _host(module: Module, call: ast.Call) -> str:
    url = url_pattern(module, call).url
    return urlsplit(url).netloc if url.startswith(("http://", "https://")) else ""


def _api_url(module: Module, call: ast.Call) -> bool:
    """Whether the call goes to a web API by its URL's own words: an ``api.`` host or an
    ``/api/`` path, to a resource with no file extension (``/v1/events``, not ``/a.php``)."""
    url = url_pattern(module, call).url
    if not url.startswith(("http://", "https://")):
        return False
    parts = urlsplit(url)
    last = parts.path.rstrip("/").rpartition("/")[2]
    api = parts.netloc.lower().startswith("api.") or "api" in parts.path.lower().split("/")
    return api and "." not in last


def speaks_json(module: Module, calls: list[ast.Call], site: int) -> bool:
    """Whether the call ``calls[site]`` (or its module, or a call to its host) sends JSON,
    or goes to a web API (:func:`_api_url`), which answers in JSON unless it says otherwise."""
    if _says_json(module.tree) or _api_url(module, calls[site]):
        return True
    host = _host(module, calls[site])
    for call in calls:
        if any(kw.arg == "json" for kw in call.keywords) and (
            call is calls[site] or (host and _host(module, call) == host)
        ):
            return True
    return False
