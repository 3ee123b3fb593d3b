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
from automock.runtime.http_inline import (
    StubOptions,
    callback_response,
    client_error_type,
    failure_for,
)
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
    "inline_fix",
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
    inline: bool = False,
) -> UnmockedAccessError:
    """The error (and the Access record) for a request nothing serves.

    It lists the nearest stubs (same host, longest common URL) and why each
    missed, and the plan entry that would serve the request (with ``inline``, a block
    that adds its own stubs: the inline stub first). The error is also the client's
    own connection error (:func:`~automock.runtime.http_inline.client_error_type`).
    """
    __tracebackhide__ = True
    request = request or Request(method, url)
    method = request.method
    fix = f"add a stub_http entry to the plan: {json.dumps(fix_entry(request))}"
    if inline:
        fix = f"add an inline stub: {inline_fix(request)}, or {fix}"
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
    return client_error_type(api)(
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


def inline_fix(request: Request) -> str:
    """The ``automock.http`` call that serves ``request`` in a test."""
    entry = fix_entry(request)
    verb = str(entry["method"]).lower()
    query = f", query={entry['query']!r}" if "query" in entry else ""
    return f"automock.http.{verb}({entry['url']!r}{query}, json={{}})"


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
        # inline stubs' code and what each stub served, keyed by id() of the stub object
        self.options: dict[int, StubOptions] = {}
        self.calls_of: dict[int, list[tuple[str, str, int]]] = {}

    @property
    def wants_body(self) -> bool:
        """Whether a stub matches on the request body (clients read it only then)."""
        return any(s.body_json is not None for s in self.stubs)

    def add_stub(self, stub: HttpStub, options: StubOptions | None = None) -> None:
        """Serve ``stub`` too (a test's inline stub): before the plan's, after earlier ones.

        Inline stubs for the same requests (same method, URL, match and matchers) take
        turns: each serves once, in the order added, and the last one keeps serving.
        """
        if options is not None:
            self.options[id(stub)] = options
        at = self._inline
        self.stubs = (*self.stubs[:at], stub, *self.stubs[at:])
        self.compiled = compile_stubs(self.stubs)
        self._inline += 1

    @property
    def inline_count(self) -> int:
        """How many stubs (at the front of :attr:`stubs`) a test added inline."""
        return self._inline

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
        __tracebackhide__ = True
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
        raise unmocked_request_error(
            method, url, api, self.stubs, request=request, inline=self._inline > 0
        )

    def _in_turn(self, chosen: CompiledStub) -> CompiledStub:
        """Among inline stubs for the same requests as ``chosen``: the first not served yet,
        else the last (responses' rule for a URL registered again)."""
        if chosen.number > self._inline:
            return chosen
        key = _request_key(chosen.stub)
        turns = [c for c in self.compiled[: self._inline] if _request_key(c.stub) == key]
        for candidate in turns:  # under the lock: _served_count counts the claimed turns
            if not self._served_count.get(candidate.number):
                return candidate
        return turns[-1]

    def _serve(self, chosen: CompiledStub, request: Request, api: str) -> StubResponse:
        __tracebackhide__ = True
        with self._lock:
            chosen = self._in_turn(chosen)
            stub = chosen.stub
            n = self._served_count.get(chosen.number, 0)
            self._served_count[chosen.number] = n + 1
        options = self.options.get(id(stub))
        if options is not None and options.raises is not None:
            self.calls_of.setdefault(id(stub), []).append((request.method, request.url, 0))
            record(
                "network",
                api,
                f"{request.method} {request.url}",
                mocked=True,
                served_by=f"{chosen.describe()}, raised",
            )
            raises = options.raises
            if isinstance(raises, str):
                raises = failure_for(raises, api, f"{request.method} {request.url}")
            raise raises
        if options is not None and options.callback is not None:
            where = f"the callback of {chosen.describe()}"
            response = callback_response(options.callback(request), where)
        else:
            response = stub.response_at(n)
        served_by = chosen.describe()
        if stub.sequence:
            served_by += f", response {min(n + 1, len(stub.sequence))} of {len(stub.sequence)}"
        target = f"{request.method} {request.url}"
        record("network", api, target, mocked=True, served_by=served_by)
        self.served.append((request.method, request.url, response.status))
        at = min(n, len(stub.sequence) - 1) if stub.sequence else -1
        note_served(stub.label, at, response.body_bytes(), response.charset())  # a trial run's
        self.calls_of.setdefault(id(stub), []).append(
            (request.method, request.url, response.status)
        )
        return response

    def cassette_miss(self, method: str, url: str, api: str) -> UnmockedAccessError:
        """Turn vcrpy's "cannot overwrite" into our fail-closed error."""
        path = self.cassette.path if self.cassette else "?"
        mode = self.cassette.record_mode if self.cassette else "none"
        return unmocked_request_error(
            method, url, api, self.stubs, why=f" is not in cassette {path} (record_mode {mode})"
        )


def _request_key(stub: HttpStub) -> tuple[object, ...]:
    """What a stub matches (not what it answers): stubs with equal keys take turns."""
    return (
        stub.method,
        stub.url,
        stub.match,
        sorted(stub.query.items()),
        sorted((k.lower(), v) for k, v in stub.request_headers.items()),
        json.dumps(stub.body_json, sort_keys=True),
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

    A stub's own ``Content-Length`` is kept as written (a ``HEAD`` stub names the size of a
    body it does not send); an empty Content-Type (``content_type=None`` inline) means none
    is sent.
    """
    headers = dict(response.headers)
    if not any(k.lower() == "content-type" for k in headers):
        headers["Content-Type"] = response.content_type()
    headers = {k: v for k, v in headers.items() if k.lower() != "content-type" or v}
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
    except ValueError:  # a code the standard does not name: its class's name
        return _STATUS_CLASSES.get(status // 100, "Unknown Status")


_STATUS_CLASSES = {
    1: "Informational",
    2: "Success",
    3: "Redirection",
    4: "Client Error",
    5: "Server Error",
}


def passthrough_error(exc: BaseException) -> bool:
    """Whether ``exc`` is vcrpy's error for a request missing from the cassette."""
    return type(exc).__name__ == "CannotOverwriteExistingCassetteException"
