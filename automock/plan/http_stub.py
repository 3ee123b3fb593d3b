"""The ``stub_http`` entry: which requests it answers and what it answers.

Pure data and validation. How a request is matched against it (URL
normalisation, the request matchers, which stub wins) is the runtime's:
:mod:`automock.runtime.http_match`, documented in docs/plans.md.
"""

from __future__ import annotations

import json as _json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from automock._serialize import JsonMixin
from automock.errors import PlanError
from automock.plan.keys import closest, refuse_unknown

__all__ = ["HTTP_METHODS", "MATCH_MODES", "STUB_FIELDS", "HttpStub", "StubResponse"]

MATCH_MODES = ("exact", "prefix", "regex")
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "*")
_RESPONSE_FIELDS = ("status", "headers", "json", "text")
STUB_FIELDS = (
    "method",
    "url",
    "match",
    *_RESPONSE_FIELDS,
    "query",
    "request_headers",
    "body_json",
    "sequence",
)
# two URLs with nothing in common: a regex matching both pins nothing
_PROBES = ("https://probe-a.automock.invalid/p/1?q=1", "http://probe-b.automock.invalid:8080/")


def _fail(where: str, message: str) -> PlanError:
    return PlanError(f"{where}: {message}"[:400])


def _strings(value: Any, where: str, form: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise _fail(where, f"expected {form}, got {type(value).__name__} {value!r}"[:200])
    for k, v in value.items():
        if not isinstance(v, str):
            raise _fail(f"{where}.{k}", f"expected a string, got {type(v).__name__} {v!r}"[:200])
    return dict(value)


def _status(value: Any, where: str) -> int:
    form = "an integer HTTP status 100-999 (three digits, as the status line has)"
    if type(value) is not int:
        raise _fail(where, f"expected {form}, got {type(value).__name__} {value!r}"[:200])
    if not 100 <= value <= 999:
        raise _fail(where, f"expected {form}, got {value}")
    return value


@dataclass(frozen=True, slots=True)
class StubResponse(JsonMixin):
    """One canned response: ``status``, ``headers`` and a body, ``json`` or ``text``."""

    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    json: Any = None
    text: str | None = None

    def body_bytes(self) -> bytes:
        if self.text is not None:  # in the charset the stub's Content-Type names, as a server
            return self.text.encode(self.charset(), "replace")
        if self.json is None:
            return b""
        return _json.dumps(self.json).encode("utf-8")

    def content_type(self) -> str:
        for name, value in self.headers.items():
            if name.lower() == "content-type":
                return value
        return (
            "application/json"
            if self.text is None and self.json is not None
            else "text/plain; charset=utf-8"
        )

    def charset(self) -> str:
        """The ``charset`` its Content-Type names (``text/html; charset=gbk``), if Python
        knows it; else UTF-8."""
        import codecs

        for part in self.content_type().split(";")[1:]:
            name, _, value = part.partition("=")
            if name.strip().lower() == "charset":
                try:
                    return codecs.lookup(value.strip().strip('"')).name
                except LookupError:
                    break
        return "utf-8"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status, "headers": dict(self.headers)}
        if self.text is not None:
            data["text"] = self.text
        else:
            data["json"] = self.json
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str, default: StubResponse | None = None) -> StubResponse:
        """A response; ``default`` gives the status and headers an item leaves out."""
        if not isinstance(data, dict):
            raise _fail(
                where, f'expected an object like {{"status": 200, "json": {{}}}}, got {data!r}'
            )
        if default is not None:
            refuse_unknown(data, _RESPONSE_FIELDS, where)
        base = default or cls()
        status = _status(data.get("status", base.status), f"{where}.status")
        headers = {**base.headers}
        headers.update(
            _strings(data.get("headers", {}), f"{where}.headers", "an object of strings")
        )
        text = data.get("text")
        if text is not None and not isinstance(text, str):
            raise _fail(f"{where}.text", f"expected a string, got {type(text).__name__}")
        return cls(status=status, headers=headers, json=data.get("json"), text=text)


@dataclass(frozen=True, slots=True)
class HttpStub(JsonMixin):
    """Canned HTTP: the requests it answers (``method``, ``url`` per ``match``, and the
    optional request matchers) and the response (``status``/``headers``/``json``/``text``,
    or a ``sequence`` served in order whose last item repeats).

    Request matchers: ``query`` (params the request must carry; others allowed),
    ``request_headers`` (names case-insensitive), ``body_json`` (the request's JSON body
    equals it; ``None`` = no body matcher). ``label`` names the plan entry (not saved).
    """

    method: str
    url: str
    match: str = "prefix"
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    json: Any = None
    text: str | None = None
    query: Mapping[str, str] = field(default_factory=dict)
    request_headers: Mapping[str, str] = field(default_factory=dict)
    body_json: Any = None
    sequence: tuple[StubResponse, ...] = ()
    label: str = field(default="", compare=False)

    @property
    def response(self) -> StubResponse:
        """The response when there is no ``sequence``."""
        return StubResponse(self.status, self.headers, self.json, self.text)

    def response_at(self, n: int) -> StubResponse:
        """The response to the n-th request this stub serves (0-based; the last repeats)."""
        if not self.sequence:
            return self.response
        return self.sequence[min(n, len(self.sequence) - 1)]

    def body_bytes(self) -> bytes:
        return self.response.body_bytes()

    def content_type(self) -> str:
        return self.response.content_type()

    def catch_all(self) -> str | None:
        """Why this stub answers requests the code was never seen to send (None: it does not).

        A wildcard method, or a URL that pins no host: a prefix or exact URL
        without a scheme and host, or a regex that two unrelated URLs both match.
        """
        if self.method == "*":
            return "method '*' answers every method"
        if self.match == "regex":
            if all(re.search(self.url, probe) for probe in _PROBES):
                return f"url {self.url!r} matches every URL"
            return None
        parts = urlsplit(self.url)
        if not (parts.scheme and parts.hostname):
            return f"url {self.url!r} names no host"
        return None

    @property
    def matcher_count(self) -> int:
        """How many request matchers narrow this stub (each query param and header counts)."""
        return len(self.query) + len(self.request_headers) + (self.body_json is not None)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "method": self.method,
            "url": self.url,
            "match": self.match,
            **self.response.to_dict(),
        }
        if self.query:
            data["query"] = dict(self.query)
        if self.request_headers:
            data["request_headers"] = dict(self.request_headers)
        if self.body_json is not None:
            data["body_json"] = self.body_json
        if self.sequence:
            data["sequence"] = [r.to_dict() for r in self.sequence]
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str) -> HttpStub:
        if not isinstance(data, dict):
            raise _fail(
                where,
                'expected an object like {"method": "GET", "url": "https://...", "json": {}}, '
                f"got {type(data).__name__}",
            )
        refuse_unknown(data, STUB_FIELDS, where)
        method = data.get("method", "GET")
        if not isinstance(method, str) or method.upper() not in HTTP_METHODS:
            raise _fail(
                f"{where}.method",
                f"expected one of {', '.join(HTTP_METHODS)}, got {method!r}"
                + closest(str(method).upper(), HTTP_METHODS),
            )
        url = data.get("url")
        if not isinstance(url, str):
            raise _fail(
                f"{where}.url",
                f"expected a URL or pattern string, got {type(url).__name__} {url!r}"[:200],
            )
        match = data.get("match", "prefix")
        if match not in MATCH_MODES:
            raise _fail(
                f"{where}.match",
                f"expected one of {', '.join(MATCH_MODES)}, got {match!r}"
                + closest(match, MATCH_MODES),
            )
        if match == "regex":
            try:
                re.compile(url)
            except re.error as exc:
                raise _fail(f"{where}.url", f"invalid regex ({exc})") from None
        response = StubResponse.from_dict(data, where)
        items = data.get("sequence", [])
        if not isinstance(items, list):
            raise _fail(
                f"{where}.sequence", 'expected a list of responses like {"status": 200, "json": {}}'
            )
        defaults = StubResponse(response.status, response.headers)
        sequence = tuple(
            StubResponse.from_dict(item, f"{where}.sequence[{i}]", defaults)
            for i, item in enumerate(items)
        )
        return cls(
            method=method.upper(),
            url=url,
            match=match,
            status=response.status,
            headers=response.headers,
            json=response.json,
            text=response.text,
            query=_strings(data.get("query", {}), f"{where}.query", "an object param -> value"),
            request_headers=_strings(
                data.get("request_headers", {}), f"{where}.request_headers", "an object of strings"
            ),
            body_json=data.get("body_json"),
            sequence=sequence,
        )
