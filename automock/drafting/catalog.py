"""Well-known public APIs: the shape of what an endpoint answers, when the code gives no sign.

A script that prints ``requests.get("https://httpbin.org/get").json()`` whole, or reads the
``name`` of a randomuser result, says nothing about what is inside; a person who knows the
web does. ``known_apis.json`` (loaded on first use) holds, per public API that hobby and
tutorial scripts call, a small representative body: its field names, nesting, types and
value formats as the API gives them, with values of our own invention. An entry names its
``hosts`` (a host or a parent domain), its ``paths`` (``*`` one segment, ``**`` the rest,
``?`` one character), optionally the ``query`` parameters it needs (``""``: present with
any value) and ``via``: the key of another of the API's responses whose URL leads to it
(``languages_url``), for a stub answering links the drafter made under ``/<key>/``. In a
body, ``{url}`` stands for the URL asked and ``{host}`` for the entry's host; ``from_path``
maps a value of the body (``octo-example``) to the index of the path segment that names
it (``/users/<login>``: 2), so the body is about what was asked.

The drafter starts a body from the entry and lets the code's own reads win
(:mod:`automock.drafting.shapes`); the entry's pointers stay in ``guessed``.
"""

from __future__ import annotations

import copy
import fnmatch
import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from automock.drafting.paging import is_paging_key
from automock.drafting.values import sample_key

__all__ = ["Known", "around", "fits", "keys_of", "known_body", "sibling"]

_FILE = Path(__file__).with_name("known_apis.json")


@dataclass(frozen=True, slots=True)
class Known:
    """The catalog entry a request matched: the API's name and the body drafted from it."""

    api: str
    body: Any


@functools.cache
def _entries() -> tuple[dict[str, Any], ...]:
    loaded: list[dict[str, Any]] = json.loads(_FILE.read_text(encoding="utf-8"))
    return tuple(loaded)


def _host_of(host: str, hosts: list[str]) -> str | None:
    return next((h for h in hosts if host == h or host.endswith("." + h)), None)


def _path_matches(path: str, template: str) -> bool:
    got, want = path.split("/"), template.split("/")
    if want[-1:] == ["**"]:
        return len(got) >= len(want) and _segments(got[: len(want) - 1], want[:-1])
    return len(got) == len(want) and _segments(got, want)


def _segments(got: list[str], want: list[str]) -> bool:
    return all(
        g == w or (w and g and fnmatch.fnmatchcase(g, w)) for g, w in zip(got, want, strict=True)
    )


def _query_matches(asked: dict[str, list[str]], wanted: dict[str, str]) -> bool:
    return all(k in asked and v in ("", asked[k][0]) for k, v in wanted.items())


def _strings(body: Any, change: Callable[[str], str]) -> Any:
    """A fresh copy of ``body`` with each string (not key) passed through ``change``."""
    if isinstance(body, str):
        return change(body)
    if isinstance(body, list):
        return [_strings(item, change) for item in body]
    if isinstance(body, dict):
        return {k: _strings(v, change) for k, v in body.items()}
    return copy.deepcopy(body)


def _asked(body: Any, asked: dict[str, list[str]]) -> Any:
    """The body answering what was asked: a top-level text field named like a query
    parameter holds its value (``?base=USD``: ``"base": "USD"``, ``?name=ada``); an object
    named like one that lists names holds those (``?current=temperature_2m,wind_speed_10m``:
    ``current`` has them and its ``time``, not the entry's other variables)."""
    if isinstance(body, dict):
        for key, values in asked.items():
            if not values or not values[0]:
                continue
            if isinstance(body.get(key), str):
                body[key] = values[0]
            elif isinstance(body.get(key), dict):
                body[key] = _listed(body[key], values[0].split(","))
    return body


def _listed(shown: dict[str, Any], names: list[str]) -> dict[str, Any]:
    names = [n.strip() for n in names if n.strip()]
    if not any(n in shown for n in names):  # not a list of the object's own keys
        return shown
    own = ("time", "interval")
    like = next((v for k, v in shown.items() if k not in own and isinstance(v, float | list)), 0)
    kept = {k: v for k, v in shown.items() if k in own or k in names}
    return kept | {n: copy.deepcopy(like) for n in names if n not in kept}


def known_body(url: str, prefix: bool = False) -> Known | None:
    """The catalog's body for a request to ``url`` (a fresh copy), or None.

    ``prefix``: ``url`` is a stub's prefix the code adds an unknown tail to
    (``https://api.github.com/users/`` + a name), so a path one segment longer is tried
    first."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if not host:
        return None
    asked = parse_qs(parts.query, keep_blank_values=True)
    paths = [parts.path or "/"]
    if prefix and parts.path.endswith("/"):  # the segment the code adds first
        paths.insert(0, parts.path + "x")
    first = parts.path.strip("/").split("/")[0]
    for path in paths:
        best: tuple[tuple[int, int], dict[str, Any], str, str] | None = None
        for entry in _entries():
            matched = _host_of(host, entry["hosts"])
            if matched is None or not _query_matches(asked, entry.get("query", {})):
                continue
            via = entry.get("via")
            fits_path = [t for t in entry["paths"] if _path_matches(path, t)]
            if via and first == via:
                fits_path.append("/" + via)
            for template in fits_path:  # the most specific entry wins, then the first
                rank = (len(entry.get("query", {})), _literal_segments(template))
                if best is None or rank > best[0]:
                    best = (rank, entry, matched, template)
        if best is not None:
            _, entry, matched, template = best
            fill = _filler(url, matched, _path_swap(entry.get("from_path", {}), path, template))
            body = _strings(entry["body"], fill)
            return Known(entry["api"], _asked(body, asked))
    return None


def _filler(url: str, host: str, swap: Callable[[str], str]) -> Callable[[str], str]:
    """A body text with ``{url}`` and ``{host}`` filled in, then about what the URL names."""
    return lambda text: swap(text.replace("{url}", url).replace("{host}", host))


def _path_swap(names: dict[str, int], path: str, template: str) -> Callable[[str], str]:
    """A body's text about what the URL names: each of the entry's ``from_path`` values (the
    body's own ``octo-example``) becomes the path's segment at its index where the matched
    template has a wildcard there (``/users/*``: the login asked for). A segment of digits
    names no login, repository or Pokemon (an id asked for keeps the entry's name)."""
    got, want = path.split("/"), template.split("/")
    swaps = {
        old: got[at]
        for old, at in names.items()
        if at < min(len(got), len(want))
        and any(c in want[at] for c in "*?[")
        and got[at]
        and not got[at].isdigit()
    }
    if not swaps:
        return lambda text: text
    pattern = re.compile("|".join(rf"(?<![\w.-]){re.escape(old)}(?![\w.-])" for old in swaps))
    return lambda text: pattern.sub(lambda m: swaps[m[0]], text)


def _literal_segments(template: str) -> int:
    return sum(1 for part in template.split("/") if part and not any(c in part for c in "*?["))


def fits(value: Any, hint: str | None) -> bool:
    """Whether the catalog's ``value`` fits how the code uses it (``hint``, as the flow
    records it); where it does not, the code wins."""
    if hint is None:
        return True
    if hint in ("int", "float", "number"):
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        return numeric and (hint != "int" or isinstance(value, int))
    kinds: dict[str, type | tuple[type, ...]] = {
        "str": str,
        "bool": bool,
        "dict": dict,
        "list": list,
    }
    return hint in kinds and isinstance(value, kinds[hint])


def keys_of(known: dict[str, Any], name: str) -> list[str]:
    """The keys of an object the code iterates over (``for code, rate in rates.items()``):
    the catalog's, else one a real object named ``name`` has (:func:`sample_key`)."""
    return [k for k in known if not is_paging_key(k)] or [sample_key(name)]


def around(read: dict[str, Any], known: dict[str, Any], pointer: str, guessed: list[str]) -> Any:
    """The object the code ``read`` (drafted from its reads) with the catalog's other keys
    of it, in the API's order (a body printed whole shows them); a paging key the code
    does not read is left out (it would turn one body into pages). Their pointers join
    ``guessed``."""
    if not known:
        return read
    out: dict[str, Any] = {}
    for key, value in known.items():
        if key in read:
            out[key] = read[key]
        elif not is_paging_key(key):
            out[key] = copy.deepcopy(value)
            guessed.append(f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}")
    out.update((k, v) for k, v in read.items() if k not in out)
    return out


def sibling(known: dict[str, Any]) -> tuple[Any] | None:
    """What a key the code reads but ``known`` lacks should hold, when ``known`` is a map
    whose values are all numbers (``rates``, ``conversion_rates``, a language's byte count):
    a sibling's value, so a currency the catalog does not list is still a rate. None for a
    record (values of mixed types)."""
    values = list(known.values())
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    return (values[len(values) // 2],) if len(values) >= 3 and numbers else None
