"""Fail-closed HTTP: every request is served from a stub, a cassette, or refused.

``mocked_network(stubs, cassette=None, allow=False)`` patches each HTTP client
the program uses, at the layer just above the wire, so its own response type
comes back (see :mod:`automock.runtime.http_clients`):

========================  =============================================
requests                  ``requests.adapters.HTTPAdapter.send``
httpx (sync / async)      ``HTTPTransport.handle_request`` / ``AsyncHTTPTransport.handle_async_request``
urllib.request, http.client  ``http.client.HTTPConnection.request/getresponse``
aiohttp                   ``ClientSession._request`` (a small fake response)
anything else             the socket guard (:mod:`automock.runtime.guard`)
========================  =============================================

Libraries are patched only if already imported, or when imported later in
the block (an import hook), so nothing heavy is imported up front. A request
no stub matches raises :class:`~automock.errors.UnmockedAccessError` naming
the method, URL and the plan entry to add, with every candidate stub and why
it missed, and is recorded as an unmocked Access. Nothing reaches the
network unless ``allow=True`` or a cassette records (``record_mode`` other
than ``"none"``, an explicit choice).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from automock.errors import UnmockedAccessError
from automock.plan.model import CassetteSettings, HttpStub
from automock.runtime._base import Patch, Undo
from automock.runtime._imports import when_imported
from automock.runtime.events import record

__all__ = [
    "NetworkSession",
    "current_network",
    "mocked_network",
    "passthrough_error",
    "reason_phrase",
    "require_session",
    "stub_headers",
    "unmocked_request_error",
]


def unmocked_request_error(
    method: str, url: str, api: str, stubs: Sequence[HttpStub], *, why: str = ""
) -> UnmockedAccessError:
    """The error (and the Access record) for a request nothing serves."""
    method = method.upper()
    entry = {"method": method, "url": url.split("?", 1)[0], "status": 200, "json": "..."}
    fix = f"add a stub_http entry to the plan: {json.dumps(entry)}".replace('"..."', "...")
    target = f"{method} {url}"
    record("network", api, target, mocked=False, fix=fix)
    if stubs:
        reasons = "; ".join(
            f"{s.method} {s.url} ({s.match}): {s.matches(method, url)[1]}" for s in stubs
        )
        detail = f" (no stub matched: {reasons})"
    else:
        detail = " (the plan has no HTTP stubs)"
    return UnmockedAccessError(
        f"unmocked HTTP request {target} via {api}{why}{detail}",
        kind="network",
        api=api,
        target=target,
        fix=fix,
    )


class NetworkSession:
    """The state behind one ``mocked_network`` block."""

    def __init__(
        self, stubs: Sequence[HttpStub], cassette: CassetteSettings | None, allow: bool
    ) -> None:
        self.stubs = tuple(stubs)
        self.cassette = cassette
        self.allow = allow
        self.served: list[tuple[str, str, int]] = []

    @property
    def passthrough(self) -> bool:
        """Whether unmatched requests go on to the real client (cassette or allow)."""
        return self.allow or self.cassette is not None

    def resolve(self, method: str, url: str, api: str) -> HttpStub | None:
        """The stub that serves this request, None to pass it on, or raise (fail closed)."""
        method = method.upper()
        for stub in self.stubs:
            if stub.matches(method, url)[0]:
                record("network", api, f"{method} {url}", mocked=True)
                self.served.append((method, url, stub.status))
                return stub
        if self.cassette is not None and self.cassette.record_mode != "none":
            # a real request, recorded (automock run --record: a person's choice)
            fix = f"a real request, recorded (record_mode {self.cassette.record_mode})"
            record("network", api, f"{method} {url}", mocked=False, fix=fix)
            return None
        if self.cassette is not None:
            record("network", api, f"{method} {url}", mocked=True)
            return None
        if self.allow:
            record("network", api, f"{method} {url}", mocked=False, fix="network allowed")
            return None
        raise unmocked_request_error(method, url, api, self.stubs)

    def cassette_miss(self, method: str, url: str, api: str) -> UnmockedAccessError:
        """Turn vcrpy's "cannot overwrite" into our fail-closed error."""
        path = self.cassette.path if self.cassette else "?"
        mode = self.cassette.record_mode if self.cassette else "none"
        return unmocked_request_error(
            method, url, api, self.stubs, why=f" is not in cassette {path} (record_mode {mode})"
        )


_sessions: list[NetworkSession] = []


def current_network() -> NetworkSession | None:
    """The innermost active network session, or None."""
    return _sessions[-1] if _sessions else None


class mocked_network(Patch[NetworkSession]):
    """Serve HTTP from ``stubs`` (and a vcrpy ``cassette``); refuse everything else."""

    def __init__(
        self,
        stubs: Iterable[HttpStub] = (),
        *,
        cassette: CassetteSettings | None = None,
        allow: bool = False,
    ) -> None:
        super().__init__()
        self.stubs = tuple(stubs)
        self.cassette = cassette
        self.allow = allow

    def _start(self, undo: Undo) -> NetworkSession:
        session = NetworkSession(self.stubs, self.cassette, self.allow)
        recording_cassette = self.cassette is not None and self.cassette.record_mode != "none"
        if not self.allow and not recording_cassette:
            from automock.runtime.guard import socket_guard

            guard = socket_guard()
            guard.__enter__()
            undo.push(lambda: guard.__exit__(None, None, None))
        if self.cassette is not None:
            from automock.runtime.cassette import enter_cassette

            enter_cassette(undo, self.cassette)
        first = not _sessions
        _sessions.append(session)
        undo.push(lambda: _sessions.remove(session))
        if first:
            from automock.runtime import http_clients

            when_imported(undo, http_clients.patchers(undo))
        return session


def require_session() -> NetworkSession:
    if not _sessions:  # a patched client called after exit (should not happen)
        raise RuntimeError("automock network patch used outside mocked_network")
    return _sessions[-1]


def stub_headers(stub: HttpStub) -> dict[str, str]:
    """Response headers for a stub: its own plus Content-Type and Content-Length."""
    headers = {k: v for k, v in stub.headers.items()}
    headers.setdefault("Content-Type", stub.content_type())
    headers["Content-Length"] = str(len(stub.body_bytes()))
    return headers


def reason_phrase(status: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def passthrough_error(exc: BaseException) -> bool:
    """Whether ``exc`` is vcrpy's error for a request missing from the cassette."""
    return type(exc).__name__ == "CannotOverwriteExistingCassetteException"
