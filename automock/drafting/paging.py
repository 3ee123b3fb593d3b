"""Paging: a response key that says whether another page follows.

A program pages through an API with ``while data["next"]:``, ``while url:`` after
``url = data.get("next")``, ``if not page["has_more"]: break``, or a token it sends back
(``nextPageToken``, ``cursor``). A body drafted once can only say one thing: with no next
page the loop is never entered (nothing read), with one it never ends. So a body holding
such a key becomes a two-response ``sequence``: the first says a page follows (the key
holds a URL the same stub answers, a token, ``true``), the second, with the same data,
says none does (``null``, ``false``), and every later request gets the second.

Keys inside a list are left alone: ``items[i].next`` is data, not the body's page.

A program that reads the link by subscript inside ``try`` and ends on ``KeyError``
(``try: url = res["next_url"] except KeyError: break``) follows a ``null`` link as a URL
(``Invalid URL 'None'``): for such a key (:func:`caught_keys`), the last page has no key.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterable, Mapping
from typing import Any

from automock.drafting.regex_sample import sample

__all__ = [
    "MORE",
    "NEXT",
    "caught_keys",
    "end_value",
    "ends_page",
    "is_paging_key",
    "pages",
    "pages_of",
    "served_url",
]

# the link or token to the next page
NEXT = re.compile(
    r"(?i)^(next(_?page|_?url|_?cursor|_?token|_?link|_?href|_?page_?token|_?page_?url)?"
    r"|cursor|continuation(_?token)?|page_?token)$"
)
# a flag saying more pages follow
MORE = re.compile(r"(?i)^(has_?more|has_?next|more|more_?results|has_?next_?page|is_?truncated)$")
_TOKEN = re.compile(r"(?i)(token|cursor|continuation)")


def is_paging_key(name: str) -> bool:
    return bool(NEXT.match(name) or MORE.match(name))


def end_value(name: str) -> Any:
    """The value of paging key ``name`` on the last page: no link, no more."""
    return False if MORE.match(name) else None


def ends_page(name: str, value: Any) -> bool:
    """Whether the last page sets key ``name`` (holding ``value``) to :func:`end_value`: a
    link or token whatever it holds, a flag only when it holds a bool."""
    return bool(NEXT.match(name) or (MORE.match(name) and isinstance(value, bool)))


def served_url(url: str, match: str, query: dict[str, str]) -> str:
    """A concrete URL the stub (``url`` per ``match``, ``query``) answers."""
    if match == "regex":
        found = sample(url, 1) or ""
        return found.rstrip("?#&")
    if not query:
        return url
    params = "&".join(f"{k}={v}" for k, v in sorted(query.items()))
    return f"{url}{'&' if '?' in url else '?'}{params}"


def _more_value(name: str, here: str) -> Any:
    if MORE.match(name):
        return True
    if _TOKEN.search(name):
        return "page-2"
    return here or "page-2"


_MISSING = frozenset({"KeyError", "LookupError", "Exception", "BaseException"})


def caught_keys(tree: ast.AST) -> frozenset[str]:
    """Paging keys read by subscript (``res["next"]``) inside a ``try`` whose handler takes
    a missing key (``KeyError``, ``LookupError``, ``Exception``, a bare ``except``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try) or not any(_takes_missing(h) for h in node.handlers):
            continue
        for inner in (n for stmt in node.body for n in ast.walk(stmt)):
            key = inner.slice if isinstance(inner, ast.Subscript) else None
            if isinstance(key, ast.Constant) and is_paging_key(str(key.value)):
                found.add(str(key.value))
    return frozenset(found)


def _takes_missing(handler: ast.ExceptHandler) -> bool:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(k is None or (isinstance(k, ast.Name) and k.id in _MISSING) for k in kinds)


def pages(body: Any, here: str, absent: Iterable[str] = ()) -> tuple[Any, Any] | None:
    """(first, last) bodies for a body holding an ended paging key outside any list (the
    first says a page follows, at ``here`` for a link; the last has no key for one in
    ``absent``, see :func:`caught_keys`); ``None`` when it holds none."""
    first, last = copy.deepcopy(body), copy.deepcopy(body)
    found: list[str] = []

    def walk(node: Any, ended: Any) -> None:
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            if isinstance(key, str) and is_paging_key(key) and value == end_value(key):
                if value is None or isinstance(value, bool):
                    node[key] = _more_value(key, here)
                    found.append(key)
                    if key in absent:
                        del ended[key]
            else:
                walk(value, ended[key] if isinstance(ended, dict) else None)

    walk(first, last)
    return (first, last) if found else None


def pages_of(data: dict[str, Any], record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The record, and the same record about each other page of a paged ``sequence``
    (items whose objects hold the same keys): the code reads every page alike."""
    sequence, response = data.get("sequence"), record.get("response")
    if not isinstance(sequence, list) or type(response) is not int:
        return [record]
    keys = [
        sorted(item["json"])
        if isinstance(item, dict) and isinstance(item.get("json"), dict)
        else None
        for item in sequence
    ]
    if not 0 <= response < len(sequence) or keys[0] is None or keys.count(keys[0]) < len(keys):
        return [record]
    return [record, *({**record, "response": n} for n in range(len(sequence)) if n != response)]
