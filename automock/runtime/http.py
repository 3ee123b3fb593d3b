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
the block (an import hook), so nothing heavy is imported up front. The most
specific matching stub answers (:mod:`automock.runtime.http_match`). A request
no stub matches raises :class:`~automock.errors.UnmockedAccessError` naming
the method, URL and the plan entry to add, with the nearest stubs and why
each missed, and is recorded as an unmocked Access. Nothing reaches the
network unless ``allow=True`` or a cassette records (``record_mode`` other
than ``"none"``, an explicit choice), or the host is in ``allow_hosts`` (a test's local
server: ``allow_hosts=["127.0.0.1"]``). A mock library the test uses itself (respx,
responses) answers the requests of the client it mocks
(:mod:`automock.runtime.http_passthrough`); stubs can also be added inline
(:mod:`automock.runtime.http_stubs`, ``automock.http.get(url, json=...)``).
"""

from __future__ import annotations

from collections.abc import Iterable

from automock.plan.model import CassetteSettings, HttpStub
from automock.runtime._base import Patch, Undo
from automock.runtime._imports import when_imported
from automock.runtime.http_clients import patchers
from automock.runtime.http_passthrough import allowed_hosts
from automock.runtime.http_session import (
    NetworkSession,
    current_network,
    passthrough_error,
    pop_session,
    push_session,
    reason_phrase,
    require_session,
    stub_headers,
    unmocked_request_error,
)

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


class mocked_network(Patch[NetworkSession]):
    """Serve HTTP from ``stubs`` (and a vcrpy ``cassette``); refuse everything else
    (but ``allow_hosts``)."""

    def __init__(
        self,
        stubs: Iterable[HttpStub] = (),
        *,
        cassette: CassetteSettings | None = None,
        allow: bool = False,
        allow_hosts: Iterable[str] = (),
    ) -> None:
        super().__init__()
        self.stubs = tuple(stubs)
        self.cassette = cassette
        self.allow = allow
        self.allow_hosts = tuple(sorted(allowed_hosts(allow_hosts)))  # ValueError names it

    def _start(self, undo: Undo) -> NetworkSession:
        session = NetworkSession(
            self.stubs, self.cassette, self.allow, allow_hosts=self.allow_hosts
        )
        recording_cassette = self.cassette is not None and self.cassette.record_mode != "none"
        if not self.allow and not recording_cassette:
            from automock.runtime.guard import socket_guard

            guard = socket_guard(allow_hosts=self.allow_hosts)
            guard.__enter__()
            undo.push(lambda: guard.__exit__(None, None, None))
        if self.cassette is not None:
            from automock.runtime.cassette import enter_cassette

            enter_cassette(undo, self.cassette)
        first = push_session(session)
        undo.push(lambda: pop_session(session))
        if first:
            when_imported(undo, patchers(undo))
        return session
