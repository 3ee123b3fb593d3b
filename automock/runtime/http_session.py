"""The state behind a ``mocked_network`` block, shared by the block and the client patches.

:mod:`automock.runtime.http` opens a :class:`NetworkSession` per block;
the per-client patches (:mod:`automock.runtime.http_clients`) ask the
innermost one to resolve each request. Both import this module, and neither
imports the other's internals.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from automock.errors import UnmockedAccessError
from automock.plan.model import CassetteSettings, HttpStub
from automock.runtime.events import record
from automock.runtime.http_passthrough import (
    allowed_hosts,
    foreign_mock,
    foreign_mocks_at_start,
    url_host_allowed,
)

__all__ = [
    "NetworkSession",
    "current_network",
    "passthrough_error",
    "pop_session",
    "push_session",
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
        self,
        stubs: Sequence[HttpStub],
        cassette: CassetteSettings | None,
        allow: bool,
        *,
        allow_hosts: Iterable[str] = (),
    ) -> None:
        self.stubs = tuple(stubs)
        self.cassette = cassette
        self.allow = allow
        self.served: list[tuple[str, str, int]] = []
        # automock.runtime.http_passthrough: hosts let through, mock libraries that answer
        self.allow_hosts = allowed_hosts(allow_hosts)
        self.foreign = foreign_mocks_at_start()  # before the client patches go in
        self._inline = 0

    def add_stub(self, stub: HttpStub) -> None:
        """Serve ``stub`` too (a test's inline stub): before the plan's, after earlier ones."""
        at = self._inline
        self.stubs = (*self.stubs[:at], stub, *self.stubs[at:])
        self._inline += 1

    @property
    def passthrough(self) -> bool:
        """Whether unmatched requests go on to the real client (cassette or allow)."""
        return self.allow or self.cassette is not None

    def resolve(self, method: str, url: str, api: str) -> HttpStub | None:
        """The stub that serves this request, None to pass it on, or raise (fail closed)."""
        method = method.upper()
        library = foreign_mock(api, self.foreign)
        if library is not None:  # the test's own mock library answers (or refuses) it
            record("network", api, f"{method} {url}", mocked=True, fix=f"served by {library}")
            return None
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
        if url_host_allowed(url, self.allow_hosts):
            record("network", api, f"{method} {url}", mocked=False, fix="allowed host")
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


def push_session(session: NetworkSession) -> bool:
    """Make ``session`` the innermost; True when it is the only one (the patches go in then)."""
    _sessions.append(session)
    return len(_sessions) == 1


def pop_session(session: NetworkSession) -> None:
    _sessions.remove(session)


def current_network() -> NetworkSession | None:
    """The innermost active network session, or None."""
    return _sessions[-1] if _sessions else None


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
