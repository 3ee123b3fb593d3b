"""Response strings a program requests: ``for film in person["films"]: requests.get(film)``.

The URL a call sends to is a value of another response, so the drafted value must be a
URL some stub answers. :class:`automock.drafting.flow.ResponseFlow` records each such
call site with the reference of the value it sends to (``links``); the shapes draft the
value as ``<host of its own response>/<key>/<n>`` (one per list item) and the call's
stub as the prefix ``<host>/<key>/``, which answers every one of them.
"""

from __future__ import annotations

import ast
from typing import Any
from urllib.parse import quote, urlsplit

from automock.drafting.literals import Ref
from automock.drafting.paging import is_paging_key, served_url
from automock.drafting.urls import url_argument

__all__ = ["link_prefix", "requested"]


def requested(flow: Any, node: ast.Call, env: dict[str, Any], response: Ref) -> Ref:
    """``response`` (the call's own), having noted the value the call sends to when it is
    a string of another response's JSON."""
    url = url_argument(node)
    value = flow.eval(url, env) if url is not None else None
    if (
        isinstance(value, Ref)
        and not value.wrap
        and value.path[:1] == ("json",)
        and len(value.path) > 1
        and value.site != response.site
        and not is_paging_key(value.path[-1][4:])  # the next page: its own stub's (paging.py)
    ):
        flow.links.setdefault(response.site, value)
        flow.note(value, "str")
    return response


def link_prefix(url: str, match: str, query: dict[str, str], path: tuple[str, ...]) -> str:
    """The prefix of the links drafted at ``path`` of the body a stub (``url`` per
    ``match``, ``query``) serves: its host, then the key the links sit under."""
    parts = urlsplit(served_url(url, match, query))
    host = f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""
    name = next((p[4:] for p in reversed(path) if p.startswith("key:") and p != "key:*"), "")
    return f"{host or 'https://api.example.com'}/{quote(name or 'item')}/"
