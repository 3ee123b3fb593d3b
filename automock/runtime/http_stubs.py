"""Inline HTTP stubs in a test, responses-style: ``automock.http.get(url, json=...)``.

Inside a block with a fail-closed network (the pytest ``automock`` fixture or
``@pytest.mark.automock``, ``with automock.deterministic()``, ``with automock.mocked_network()``)::

    import automock

    def test_user(automock):  # or @pytest.mark.automock and the module `automock.http`
        automock.http.get("https://api.example.com/user", json={"name": "Ada"})
        automock.http.post("https://api.example.com/user", status=201, headers={"X-Id": "7"})
        assert fetch_user()["name"] == "Ada"
        assert [c.url for c in automock.http.calls] == ["https://api.example.com/user"]

Each call adds an :class:`~automock.plan.model.HttpStub` (the plan's ``stub_http`` entry,
validated the same way) to the innermost active network session, ahead of the plan's
stubs; it is gone when the block ends. ``url`` matches as in plans (``match="prefix"`` by
default; ``"exact"`` or ``"regex"``). Request matchers are the stub's own fields:
``query=``, ``request_headers=``, ``body_json=``. ``calls`` lists the requests served from
stubs in the block, in order (responses' ``calls``).

Adding a stub for the same requests again (same method, URL, match and matchers) queues
its response: the stubs serve once each, in the order added, and the last one repeats
(responses' rule). ``sequence=[{...}, ...]`` does the same in one stub, as in plans. The
value returned is a :class:`Stub`: the plan entry (``.stub``) plus what it served
(``.call_count``, ``.calls``); :meth:`HttpStubs.assert_all_called` fails a test whose
stubs were not all used. Only inline, never in plans: ``callback=`` (a function of the
:class:`~automock.runtime.http_match.Request` returning ``(status, headers, body)``, a
response dict or a ``StubResponse``) and ``raises=`` (an exception raised instead of a
response, e.g. ``requests.Timeout()``, or ``"connection"``/``"timeout"`` for whichever
client calls: its own refused-connection or timeout error). ``url`` may be a compiled ``re.Pattern`` (regex
match, its flags kept); ``content_type=None`` sends no Content-Type header.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from automock.errors import InputError
from automock.plan.model import HttpStub
from automock.runtime.http_inline import FAILURES, StubOptions

if TYPE_CHECKING:
    from automock.runtime.http_session import NetworkSession

__all__ = ["Call", "HttpStubs", "Stub", "http"]

_UNSET: Any = object()
# request matchers (keyword -> HttpStub field); passed on only when HttpStub has the field
_MATCHERS = ("query", "request_headers", "body_json")


@dataclass(frozen=True, slots=True)
class Call:
    """One request a stub served: ``automock.http.calls[0].url`` (responses' ``calls``)."""

    method: str
    url: str
    status: int

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "url": self.url, "status": self.status}


class Stub:
    """An inline stub as added: the plan entry (``.stub``, its fields readable here too)
    and the requests it served in its block (``.calls``, ``.call_count``; a request it
    answered by raising counts, with status 0)."""

    def __init__(self, stub: HttpStub, network: Callable[[], NetworkSession | None]) -> None:
        self.stub = stub
        self._network = network

    @property
    def calls(self) -> list[Call]:
        session = self._network()
        served = session.calls_of.get(id(self.stub), []) if session is not None else []
        return [Call(method, url, status) for method, url, status in served]

    @property
    def call_count(self) -> int:
        return len(self.calls)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "stub":  # copy/pickle probe a bare instance
            raise AttributeError(name)
        return getattr(self.stub, name)

    def __repr__(self) -> str:
        return f"<automock stub {self.stub.method} {self.stub.url}, called {self.call_count}x>"


class HttpStubs:
    """Add stubs to a network session and read what they served (see the module docstring)."""

    def __init__(self, network: Callable[[], NetworkSession | None]) -> None:
        self._network = network

    def _session(self, what: str) -> NetworkSession:
        session = self._network()
        if session is None:
            raise InputError(
                f"automock.http.{what}: no automock network is active; use it in a test with "
                "the automock fixture or @pytest.mark.automock, or inside "
                "`with automock.deterministic():` / `with automock.mocked_network():`"
            )
        return session

    def add(
        self,
        method: str,
        url: str,
        *,
        json: Any = _UNSET,
        body: str | bytes | None = None,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        content_type: str | None = _UNSET,
        match: str = "prefix",
        sequence: Sequence[Mapping[str, Any]] | None = None,
        callback: Callable[[Any], Any] | None = None,
        raises: BaseException | type[BaseException] | str | None = None,
        **matchers: Any,
    ) -> Stub:
        """Serve ``method url`` with this response while the block lasts; return the stub."""
        __tracebackhide__ = True
        where = f"automock.http.{method.lower() if isinstance(method, str) else 'add'}"
        if isinstance(url, re.Pattern):
            url, match = _pattern_text(url), "regex"
        answers = [json is not _UNSET or body is not None, sequence, callback, raises]
        if sum(1 for given in answers if given) > 1:
            raise InputError(
                f"{where}({url!r}): give one of json=/body=, sequence=, callback=, raises="
            )
        if json is not _UNSET and body is not None:
            raise InputError(f"{where}({url!r}): give json= or body=, not both")
        if callback is not None and not callable(callback):
            raise InputError(f"{where}({url!r}): callback= must be a function of the request")
        if raises is not None and not _exception(raises):
            raise InputError(
                f"{where}({url!r}): raises= takes an exception, or 'connection' or 'timeout' "
                f"for the client's own error, got {raises!r}"
            )
        data: dict[str, Any] = {
            "method": method,
            "url": url,
            "match": match,
            "status": status,
            "headers": dict(headers or {}),
        }
        if content_type is not _UNSET:
            data["headers"]["Content-Type"] = content_type or ""  # "": no header sent
        if body is not None:
            data["text"] = body.decode("utf-8") if isinstance(body, bytes) else body
        elif json is not _UNSET:
            data["json"] = json
        if sequence is not None:
            data["sequence"] = [dict(item) for item in sequence]
        data.update(_matcher_fields(where, url, matchers))
        stub = HttpStub.from_dict(data, where)
        options = StubOptions(callback, raises) if callback or raises else None
        session = self._session(where.rsplit(".", 1)[1])
        session.add_stub(stub, options)
        return Stub(stub, self._network)

    def get(self, url: str | re.Pattern[str], **kwargs: Any) -> Stub:
        return self.add("GET", url, **kwargs)  # type: ignore[arg-type]

    def post(self, url: str | re.Pattern[str], **kwargs: Any) -> Stub:
        return self.add("POST", url, **kwargs)  # type: ignore[arg-type]

    def put(self, url: str | re.Pattern[str], **kwargs: Any) -> Stub:
        return self.add("PUT", url, **kwargs)  # type: ignore[arg-type]

    def patch(self, url: str | re.Pattern[str], **kwargs: Any) -> Stub:
        return self.add("PATCH", url, **kwargs)  # type: ignore[arg-type]

    def delete(self, url: str | re.Pattern[str], **kwargs: Any) -> Stub:
        return self.add("DELETE", url, **kwargs)  # type: ignore[arg-type]

    def head(self, url: str | re.Pattern[str], **kwargs: Any) -> Stub:
        return self.add("HEAD", url, **kwargs)  # type: ignore[arg-type]

    def options(self, url: str | re.Pattern[str], **kwargs: Any) -> Stub:
        return self.add("OPTIONS", url, **kwargs)  # type: ignore[arg-type]

    def assert_all_called(self) -> None:
        """Fail (``AssertionError``) naming each inline stub of this block never used
        (responses' ``assert_all_requests_are_fired``)."""
        __tracebackhide__ = True
        session = self._session("assert_all_called")
        unused = [
            f"{s.method} {s.match} {s.url}"
            for s in session.stubs[: session.inline_count]
            if not session.calls_of.get(id(s))
        ]
        if unused:
            raise AssertionError("automock: stubs never called: " + "; ".join(unused))

    @property
    def calls(self) -> list[Call]:
        """The requests served from stubs in this block, in order."""
        session = self._session("calls")
        return [Call(method, url, status) for method, url, status in session.served]


def _pattern_text(pattern: re.Pattern[str]) -> str:
    """A compiled pattern as plan text: its flags inline (``(?i)...``)."""
    flags = "".join(
        letter
        for flag, letter in (
            (re.IGNORECASE, "i"),
            (re.MULTILINE, "m"),
            (re.DOTALL, "s"),
            (re.VERBOSE, "x"),
        )
        if pattern.flags & flag
    )
    return f"(?{flags}){pattern.pattern}" if flags else pattern.pattern


def _exception(value: object) -> bool:
    return (
        value in FAILURES
        or isinstance(value, BaseException)
        or (isinstance(value, type) and issubclass(value, BaseException))
    )


def _matcher_fields(where: str, url: str, matchers: Mapping[str, Any]) -> dict[str, Any]:
    """The request matchers, checked against HttpStub's fields."""
    known = {f.name for f in dataclasses.fields(HttpStub)}
    fields: dict[str, Any] = {}
    for name, value in matchers.items():
        if name not in _MATCHERS:
            raise InputError(
                f"{where}({url!r}): unknown keyword {name!r}; expected json, body, status, "
                f"headers, content_type, match, {', '.join(_MATCHERS)}"
            )
        if name not in known:
            # an HttpStub without the field (older plan model): say so rather than drop it
            raise InputError(
                f"{where}({url!r}): the {name}= matcher needs a newer automock "
                "(HttpStub has no such field here)"
            )
        fields[name] = value
    return fields


def _current() -> NetworkSession | None:
    from automock.runtime.http_session import current_network

    return current_network()


http = HttpStubs(_current)
"""The stubs of the innermost active network session: ``automock.http.get(url, json=...)``."""
