"""The state behind a ``mocked_network`` block, shared by the block and the client patches.

:mod:`automock.runtime.http` opens a :class:`NetworkSession` per block;
the per-client patches (:mod:`automock.runtime.http_clients`) ask the
innermost one to resolve each request. Both import this module, and neither
imports the other's internals.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping, Sequence

from automock.errors import UnmockedAccessError
from automock.plan.model import CassetteSettings, HttpStub, StubResponse
from automock.runtime.events import record
from automock.runtime.http_match import (
    CompiledStub,
    Request,
    compile_stubs,
    most_specific,
    nearest,
    shadowed,
)
from automock.runtime.http_passthrough import (
    allowed_hosts,
    foreign_mock,
    foreign_mocks_at_start,
    url_host_allowed,
)
from automock.runtime.observations import note_served, note_stubs, observing

__all__ = [
    "NetworkSession",
    "current_network",
    "fix_entry",
    "header_pairs",
    "passthrough_error",
    "pop_session",
    "push_session",
    "reason_phrase",
    "request_bytes",
    "require_session",
    "response_body",
    "stub_headers",
    "unmocked_request_error",
]


def unmocked_request_error(
    method: str,
    url: str,
    api: str,
    stubs: Sequence[HttpStub],
    *,
    why: str = "",
    request: Request | None = None,
) -> UnmockedAccessError:
    """The error (and the Access record) for a request nothing serves.

    It lists the nearest stubs (same host, longest common URL) and why each
    missed, and the plan entry that would serve the request.
    """
    request = request or Request(method, url)
    method = request.method
    fix = f"add a stub_http entry to the plan: {json.dumps(fix_entry(request))}"
    target = f"{method} {url}"
    compiled = compile_stubs(stubs)
    if compiled:
        near = nearest(compiled, request)
        reasons = "; ".join(f"{s.describe()}: {reason}" for s, reason in near)
        more = f"; and {len(compiled) - len(near)} more" if len(compiled) > len(near) else ""
        detail = f" (no stub matched; nearest: {reasons}{more})"
        # the report shows the fix only: it also says why the nearest stub missed
        closest, reason = near[0]
        record(
            "network",
            api,
            target,
            mocked=False,
            fix=f"{fix}; nearest {closest.describe()}: {reason}",
        )
    else:
        detail = " (the plan has no HTTP stubs)"
        record("network", api, target, mocked=False, fix=fix)
    return UnmockedAccessError(
        f"unmocked HTTP request {target} via {api}{why}{detail}",
        kind="network",
        api=api,
        target=target,
        fix=fix,
    )


def fix_entry(request: Request) -> dict[str, object]:
    """The ``stub_http`` data that serves ``request``: its URL, its query as a matcher."""
    entry: dict[str, object] = {
        "method": request.method,
        "url": request.url.split("#", 1)[0].split("?", 1)[0],
        "match": "prefix",
    }
    if request.form.query:
        entry["query"] = dict(request.form.query)
    entry.update({"status": 200, "json": {}})
    return entry


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
        self.compiled = compile_stubs(self.stubs)
        if observing():  # a drafting loop's trial run: which stubs can never be served
            note_stubs([(a.stub.label, b.stub.label) for a, b in shadowed(self.compiled)])
        self.cassette = cassette
        self.allow = allow
        # (method, url, status) of each request a stub served; the Access names the stub
        self.served: list[tuple[str, str, int]] = []
        self._lock = threading.Lock()
        self._served_count: dict[int, int] = {}
        # automock.runtime.http_passthrough: hosts let through, mock libraries that answer
        self.allow_hosts = allowed_hosts(allow_hosts)
        self.foreign = foreign_mocks_at_start()  # before the client patches go in
        self._inline = 0

    @property
    def wants_body(self) -> bool:
        """Whether a stub matches on the request body (clients read it only then)."""
        return any(s.body_json is not None for s in self.stubs)

    def add_stub(self, stub: HttpStub) -> None:
        """Serve ``stub`` too (a test's inline stub): before the plan's, after earlier ones."""
        at = self._inline
        self.stubs = (*self.stubs[:at], stub, *self.stubs[at:])
        self.compiled = compile_stubs(self.stubs)
        self._inline += 1

    @property
    def passthrough(self) -> bool:
        """Whether unmatched requests go on to the real client (cassette or allow)."""
        return self.allow or self.cassette is not None

    def resolve(
        self,
        method: str,
        url: str,
        api: str,
        headers: Mapping[str, str] | None = None,
        body: bytes | None = None,
    ) -> StubResponse | None:
        """The response that serves this request, None to pass it on, or raise (fail closed).

        The most specific matching stub answers (:mod:`automock.runtime.http_match`); a
        stub with a ``sequence`` gives its n-th response to its n-th request.
        """
        request = Request(method, url, headers or {}, body)
        method = request.method
        library = foreign_mock(api, self.foreign)
        if library is not None:  # the test's own mock library answers (or refuses) it
            record("network", api, f"{method} {url}", mocked=True, fix=f"served by {library}")
            return None
        chosen = most_specific(self.compiled, request)
        if chosen is not None:
            return self._serve(chosen, request, api)
        if self.cassette is not None and self.cassette.record_mode != "none":
            # a real request, recorded (automock run --record: a person's choice)
            fix = f"a real request, recorded (record_mode {self.cassette.record_mode})"
            record("network", api, f"{method} {url}", mocked=False, fix=fix)
            return None
        if self.cassette is not None:
            record("network", api, f"{method} {url}", mocked=True, served_by="cassette")
            return None
        if self.allow:
            record("network", api, f"{method} {url}", mocked=False, fix="network allowed")
            return None
        if url_host_allowed(url, self.allow_hosts):
            record("network", api, f"{method} {url}", mocked=False, fix="allowed host")
            return None
        raise unmocked_request_error(method, url, api, self.stubs, request=request)

    def _serve(self, chosen: CompiledStub, request: Request, api: str) -> StubResponse:
        stub = chosen.stub
        with self._lock:
            n = self._served_count.get(chosen.number, 0)
            self._served_count[chosen.number] = n + 1
        response = stub.response_at(n)
        served_by = chosen.describe()
        if stub.sequence:
            served_by += f", response {min(n + 1, len(stub.sequence))} of {len(stub.sequence)}"
        target = f"{request.method} {request.url}"
        record("network", api, target, mocked=True, served_by=served_by)
        self.served.append((request.method, request.url, response.status))
        at = min(n, len(stub.sequence) - 1) if stub.sequence else -1
        note_served(stub.label, at, response.body_bytes())  # a trial run's (drafting loop)
        return response

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


def stub_headers(response: StubResponse | HttpStub) -> dict[str, str]:
    """Response headers: the stub's own, plus Content-Type and Content-Length when it has none.

    A stub's own ``Content-Length`` is kept as written (a ``HEAD`` stub names the
    size of a body it does not send).
    """
    headers = dict(response.headers)
    if not any(k.lower() == "content-type" for k in headers):
        headers["Content-Type"] = response.content_type()
    if not any(k.lower() == "content-length" for k in headers):
        headers["Content-Length"] = str(len(response.body_bytes()))
    return headers


def request_bytes(body: object) -> bytes | None:
    """A request body as bytes, when it is held in memory (a stream or file: None)."""
    if isinstance(body, bytes | bytearray | memoryview):
        return bytes(body)
    if isinstance(body, str):
        return body.encode("utf-8")
    return None


def header_pairs(headers: Mapping[str, str]) -> list[tuple[str, str]]:
    """``(name, value)`` pairs as sent: a value of several lines is that many headers.

    So a stub sets two cookies with ``"Set-Cookie": "a=1; Path=/\\nb=2; Path=/"``.
    """
    return [(k, line) for k, v in headers.items() for line in v.split("\n") if line.strip()]


def response_body(response: StubResponse | HttpStub, method: str) -> bytes:
    """The body a client receives: none for ``HEAD``, as from a server."""
    return b"" if method.upper() == "HEAD" else response.body_bytes()


def reason_phrase(status: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def passthrough_error(exc: BaseException) -> bool:
    """Whether ``exc`` is vcrpy's error for a request missing from the cassette."""
    return type(exc).__name__ == "CannotOverwriteExistingCassetteException"
