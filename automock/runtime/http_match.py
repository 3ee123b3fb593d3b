"""Which stub answers a request: URL modes, request matchers, the most specific wins.

A request matches a stub when the method agrees (``*`` = any), the URL
matches per ``match`` on canonical forms (:mod:`automock.runtime.http_urls`),
and every request matcher agrees:

- ``exact``: same scheme, host, path and query pairs (in any order);
- ``prefix``: same scheme and host, the path at or below the stub's on a
  segment boundary, and each query pair of the stub's URL present in the
  request (``?q=`` with an empty value: ``q`` present with any value);
- ``regex``: ``re.search`` finds the pattern in the URL as sent (without its
  fragment) or in its decoded canonical form;
- ``query``: the request carries each param with that value (others allowed);
- ``request_headers``: each header (name case-insensitive) with that value;
- ``body_json``: the request body parses as JSON equal to it.

Among the stubs that match, the most specific serves (:attr:`CompiledStub.rank`):
``exact`` > ``prefix`` > ``regex``; then the longer literal URL (for a regex,
its literal prefix); then more request matchers; then a named method over
``*``; then plan order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from automock.plan.model import HttpStub
from automock.runtime.http_urls import (
    CanonicalUrl,
    canonical,
    path_within,
    query_contains,
    regex_literal_prefix,
    regex_search,
    same_query,
)

__all__ = [
    "CompiledStub",
    "Request",
    "compile_stubs",
    "most_specific",
    "nearest",
    "shadowed",
    "stub_request",
]

_MODE_RANK = {"exact": 3, "prefix": 2, "regex": 1}


@dataclass(frozen=True, slots=True)
class Request:
    """One request as the client sends it: method, full URL, headers, body bytes."""

    method: str
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes | None = None
    form: CanonicalUrl = field(init=False)
    sent: str = field(init=False)  # the URL without its fragment
    decoded: str = field(init=False)  # the canonical form as text

    def __post_init__(self) -> None:
        form = canonical(self.url)
        object.__setattr__(self, "method", self.method.upper())
        object.__setattr__(self, "form", form)
        object.__setattr__(self, "sent", self.url.split("#", 1)[0])
        object.__setattr__(self, "decoded", form.text)

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        for key, value in self.headers.items():
            if key.lower() == wanted:
                return value.decode("latin-1") if isinstance(value, bytes) else str(value)
        return None


@dataclass(frozen=True, slots=True)
class CompiledStub:
    """A stub with its URL in canonical form, its regex compiled, its number (1-based)."""

    stub: HttpStub
    number: int
    form: CanonicalUrl
    pattern: re.Pattern[str] | None
    literal: str

    @property
    def rank(self) -> tuple[int, int, int, int, int]:
        """Higher is more specific; plan order (a lower number) breaks the last tie."""
        stub = self.stub
        specific_method = int(stub.method != "*")
        return (
            _MODE_RANK[stub.match],
            len(self.literal),
            stub.matcher_count,
            specific_method,
            -self.number,
        )

    def describe(self) -> str:
        """``stub #3 (GET prefix https://api.example.com/current, query city=Oslo; plan
        entries[2], line 9)``: the stub's number in the session, what it matches, its entry."""
        stub = self.stub
        parts = [f"{stub.method} {stub.match} {stub.url}"]
        parts += [f"query {k}={v}" for k, v in stub.query.items()]
        parts += [f"header {k}: {v}" for k, v in stub.request_headers.items()]
        if stub.body_json is not None:
            parts.append("body_json " + json.dumps(stub.body_json)[:60])
        if stub.sequence:
            parts.append(f"sequence of {len(stub.sequence)}")
        text = ", ".join(parts) + (f"; plan {stub.label}" if stub.label else "")
        return f"stub #{self.number} ({text})"

    def check(self, request: Request) -> tuple[bool, str]:
        """``(matched, reason)``: every way the request misses this stub, or "matched"."""
        reasons = self.misses(request)
        return (False, "; ".join(reasons)) if reasons else (True, "matched")

    def matches(self, request: Request) -> bool:
        """Does the request match? (Stops at the first miss.)"""
        return next(self._misses(request), None) is None

    def misses(self, request: Request) -> list[str]:
        """Every way the request misses this stub ([] when it matches)."""
        return list(self._misses(request))

    def _misses(self, request: Request) -> Iterator[str]:
        stub = self.stub
        if stub.method != "*" and stub.method != request.method:
            yield f"method {request.method} != {stub.method}"
        yield from self._url_misses(request)
        for name, value in stub.query.items():
            yield from _miss(query_contains(request.form.query, name, value))
        for name, value in stub.request_headers.items():
            got = request.header(name)
            if got is None:
                yield f"header {name} missing"
            elif got.strip() != value.strip():
                yield f"header {name}: {got[:40]!r} (wants {value[:40]!r})"
        if stub.body_json is not None:
            yield from _body_misses(stub.body_json, request.body)

    def _url_misses(self, request: Request) -> Iterator[str]:
        got, want = request.form, self.form
        if self.pattern is not None:
            if not regex_search(self.pattern, request.sent, request.decoded):
                yield f"URL does not match the regex {self.stub.url}"
            return
        if got.host != want.host or got.scheme != want.scheme:
            yield f"host {got.origin} != {want.origin}"
            return
        if self.stub.match == "exact":
            if got.path != want.path:
                yield f"path {got.path} != {want.path}"
            if not same_query(want.query, got.query):
                yield f"query {got.query_text or '(none)'} != {want.query_text or '(none)'}"
            return
        if not path_within(want.path, got.path):
            yield f"path {got.path} not under {want.path}"
        for name, value in want.query:
            yield from _miss(query_contains(got.query, name, value or None))


def _miss(result: tuple[bool, str]) -> tuple[str, ...]:
    return () if result[0] else (result[1],)


def _body_misses(expected: object, body: bytes | None) -> list[str]:
    if not body:
        return ["no request body (wants body_json)"]
    try:
        got = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return ["request body is not JSON (wants body_json)"]
    if got != expected:
        return [f"body {json.dumps(got)[:60]} != body_json {json.dumps(expected)[:60]}"]
    return []


def compile_stubs(stubs: Sequence[HttpStub]) -> tuple[CompiledStub, ...]:
    """Each stub with its canonical URL (or compiled regex) and literal text, numbered from 1."""
    compiled = []
    for number, stub in enumerate(stubs, 1):
        if stub.match == "regex":
            pattern: re.Pattern[str] | None = re.compile(stub.url)
            literal, form = regex_literal_prefix(stub.url), canonical("")
        else:
            pattern, form = None, canonical(stub.url)
            literal = form.text
        compiled.append(CompiledStub(stub, number, form, pattern, literal))
    return tuple(compiled)


def most_specific(stubs: Sequence[CompiledStub], request: Request) -> CompiledStub | None:
    """The matching stub of the highest :attr:`~CompiledStub.rank`, or None."""
    matching = [s for s in stubs if s.matches(request)]
    return max(matching, key=lambda s: s.rank) if matching else None


def stub_request(stub: HttpStub) -> Request:
    """The request a (non-regex) stub states: its URL with its query, its method (GET for
    ``"*"``), its request headers."""
    url = stub.url
    if stub.query:
        url += ("&" if "?" in url else "?") + "&".join(f"{k}={v}" for k, v in stub.query.items())
    method = "GET" if stub.method == "*" else stub.method
    return Request(method, url, dict(stub.request_headers))


def shadowed(stubs: Sequence[CompiledStub]) -> list[tuple[CompiledStub, CompiledStub]]:
    """(stub, the stub that serves in its place) for each stub whose own request (its URL,
    query and headers as it states them) goes to a higher-ranked one: it is never served
    for that request, and most likely for none. Regex stubs and body matchers are skipped."""
    out = []
    for stub in stubs:
        if stub.pattern is not None or stub.stub.body_json is not None:
            continue
        chosen = most_specific(stubs, stub_request(stub.stub))
        if chosen is not None and chosen.number != stub.number:
            out.append((stub, chosen))
    return out


def nearest(
    stubs: Sequence[CompiledStub], request: Request, limit: int = 5
) -> list[tuple[CompiledStub, str]]:
    """Up to ``limit`` stubs most like the request (same host, longest common URL), with
    why each missed."""

    def likeness(stub: CompiledStub) -> tuple[int, int, int, int]:
        text = stub.form.text if stub.pattern is None else stub.literal
        origin = stub.form.origin if stub.pattern is None else canonical(text).origin
        same_host = "://" in text and origin == request.form.origin
        common = _common_prefix(text, request.form.text)
        method_ok = stub.stub.method in ("*", request.method)
        return (int(same_host), common, int(method_ok), -stub.number)

    ranked = sorted(stubs, key=likeness, reverse=True)[:limit]
    return [(s, "; ".join(s.misses(request)) or "matched") for s in ranked]


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
