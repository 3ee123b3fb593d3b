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
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from automock.errors import InputError
from automock.plan.model import HttpStub

if TYPE_CHECKING:
    from automock.runtime.http_session import NetworkSession

__all__ = ["Call", "HttpStubs", "http"]

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
        content_type: str | None = None,
        match: str = "prefix",
        **matchers: Any,
    ) -> HttpStub:
        """Serve ``method url`` with this response while the block lasts; return the stub."""
        where = f"automock.http.{method.lower() if isinstance(method, str) else 'add'}"
        if json is not _UNSET and body is not None:
            raise InputError(f"{where}({url!r}): give json= or body=, not both")
        data: dict[str, Any] = {
            "method": method,
            "url": url,
            "match": match,
            "status": status,
            "headers": dict(headers or {}),
        }
        if content_type is not None:
            data["headers"]["Content-Type"] = content_type
        if body is not None:
            data["text"] = body.decode("utf-8") if isinstance(body, bytes) else body
        elif json is not _UNSET:
            data["json"] = json
        data.update(_matcher_fields(where, url, matchers))
        stub = HttpStub.from_dict(data, where)
        self._session(where.rsplit(".", 1)[1]).add_stub(stub)
        return stub

    def get(self, url: str, **kwargs: Any) -> HttpStub:
        return self.add("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> HttpStub:
        return self.add("POST", url, **kwargs)

    def put(self, url: str, **kwargs: Any) -> HttpStub:
        return self.add("PUT", url, **kwargs)

    def patch(self, url: str, **kwargs: Any) -> HttpStub:
        return self.add("PATCH", url, **kwargs)

    def delete(self, url: str, **kwargs: Any) -> HttpStub:
        return self.add("DELETE", url, **kwargs)

    def head(self, url: str, **kwargs: Any) -> HttpStub:
        return self.add("HEAD", url, **kwargs)

    def options(self, url: str, **kwargs: Any) -> HttpStub:
        return self.add("OPTIONS", url, **kwargs)

    @property
    def calls(self) -> list[Call]:
        """The requests served from stubs in this block, in order."""
        session = self._session("calls")
        return [Call(method, url, status) for method, url, status in session.served]


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
