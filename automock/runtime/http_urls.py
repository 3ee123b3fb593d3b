"""URLs in the form stubs and requests are compared in (docs/plans.md, "How a stub matches").

Clients rewrite a URL before sending it: they percent-encode it, drop the
``#fragment``, add or drop the default port, lowercase the scheme and host,
order the query as they please. :func:`canonical` undoes all of that, for the
request and for the stub alike: scheme and host lowercased (IDNA for a
non-ASCII host), the default port (``:80``/``:443``) and any ``user@`` dropped,
the path percent-decoded segment by segment (an encoded ``/`` stays ``%2F``)
with ``.``/``..`` resolved and ``""`` read as ``/``, the query decoded into
``(name, value)`` pairs (``+`` is a space), the fragment gone.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

__all__ = [
    "CanonicalUrl",
    "canonical",
    "path_within",
    "query_contains",
    "regex_literal_prefix",
    "regex_search",
    "same_query",
]

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


@dataclass(frozen=True, slots=True)
class CanonicalUrl:
    """``scheme://host[:port]`` + decoded path + decoded query pairs (in sent order)."""

    scheme: str
    host: str
    path: str
    query: tuple[tuple[str, str], ...] = ()

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.host}" if self.scheme else self.host

    @property
    def query_text(self) -> str:
        return "&".join(f"{k}={v}" for k, v in self.query)

    @property
    def text(self) -> str:
        """The whole URL, decoded (what a regex stub is also tried against)."""
        query = self.query_text
        return self.origin + self.path + (f"?{query}" if query else "")


def canonical(url: str) -> CanonicalUrl:
    """The canonical form of ``url`` (never raises: a malformed URL keeps what parses)."""
    from urllib.parse import parse_qsl, urlsplit  # here: the runtime enters without urllib

    try:
        parts = urlsplit(url.strip())
    except ValueError:  # e.g. an unbalanced "[" in the host
        return CanonicalUrl("", "", url.strip())
    scheme = parts.scheme.lower()
    host = _host(parts.hostname or "")
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        host = f"{host}:{port}"
    query = tuple(parse_qsl(parts.query, keep_blank_values=True))
    return CanonicalUrl(scheme, host, _path(parts.path), query)


def _host(host: str) -> str:
    if ":" in host:  # an IPv6 literal, unbracketed by urlsplit
        return f"[{host}]"
    if not host.isascii():
        try:
            return host.encode("idna").decode("ascii").lower()
        except UnicodeError:
            return host.lower()
    return host.lower()


def _path(path: str) -> str:
    from urllib.parse import unquote

    out: list[str] = []
    segments = path.split("/")
    for i, raw in enumerate(segments):
        segment = unquote(raw).replace("/", "%2F")
        last = i == len(segments) - 1
        if segment == ".":
            segment = ""
            if not last:
                continue
        elif segment == "..":
            if len(out) > 1:
                out.pop()
            if not last:
                continue
            segment = ""
        out.append(segment)
    joined = "/".join(out)
    return joined if joined.startswith("/") else "/" + joined


def path_within(prefix: str, path: str) -> bool:
    """Is ``path`` the path ``prefix`` or below it, on a segment boundary?

    ``/repos/x`` covers ``/repos/x`` and ``/repos/x/tags``, not ``/repos/x-y``;
    a prefix ending in ``/`` covers everything below it.
    """
    if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
        return True
    return path.startswith(prefix + "/")


def same_query(expected: tuple[tuple[str, str], ...], got: tuple[tuple[str, str], ...]) -> bool:
    """The same pairs, in any order (a multiset)."""
    return Counter(expected) == Counter(got)


def query_contains(
    got: tuple[tuple[str, str], ...], name: str, value: str | None
) -> tuple[bool, str]:
    """``(present, reason)``: does the query carry ``name`` (with ``value``; None = any)?"""
    values = [v for k, v in got if k == name]
    if not values:
        return False, f"query param {name} missing"
    if value is None or value in values:
        return True, ""
    return False, f"query param {name}={values[0]} (wants {name}={value})"


_META = set(".^$*+?{}[]|()")
_QUANTIFIERS = set("*?{")


def regex_literal_prefix(pattern: str) -> str:
    """The literal text every match of ``pattern`` starts with ("" if none is certain).

    ``^https://api\\.x\\.com/repos/[^/]+`` -> ``https://api.x.com/repos/`` (a leading
    ``^`` or ``\\A`` is skipped); a pattern with ``|`` gives "".
    """
    if "|" in pattern:
        return ""
    i = 2 if pattern.startswith("\\A") else 1 if pattern.startswith("^") else 0
    literal: list[str] = []
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            nxt = pattern[i + 1 : i + 2]
            if not nxt or nxt.isalnum():
                break
            literal.append(nxt)
            i += 2
        elif char in _META:
            if char in _QUANTIFIERS and literal:
                literal.pop()  # "s?" : the s is optional
            break
        else:
            literal.append(char)
            i += 1
    return "".join(literal)


def regex_search(pattern: re.Pattern[str], sent: str, decoded: str) -> bool:
    """Does the regex find a match in the URL as sent (fragment dropped) or decoded?"""
    return pattern.search(sent) is not None or pattern.search(decoded) is not None
