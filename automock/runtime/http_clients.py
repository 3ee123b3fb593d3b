"""Per-client patches: turn a matched stub into each library's own response type.

Each ``_patch_*`` takes the freshly imported module and replaces one method
at class level (restored by the ``Undo``). The replacement asks the active
:class:`~automock.runtime.http_session.NetworkSession` to resolve the request: a stub
is served as a native response, ``None`` passes the request on to the
original method (cassette or ``allow``), and a miss raises before any
connection is made.
"""

from __future__ import annotations

import importlib
import io
import types
from collections.abc import Callable
from types import ModuleType
from typing import Any

from automock.errors import UnmockedAccessError
from automock.plan.model import StubResponse
from automock.runtime._base import Undo
from automock.runtime.http_aiohttp import patch_aiohttp
from automock.runtime.http_passthrough import passing_through
from automock.runtime.http_session import (
    header_pairs,
    passthrough_error,
    reason_phrase,
    request_bytes,
    require_session,
    response_body,
    stub_headers,
)
from automock.runtime.http_urllib3 import patch_urllib3

__all__ = ["patchers"]


def patchers(undo: Undo) -> dict[str, Callable[[ModuleType], None]]:
    """Module name -> patch function, for :func:`~automock.runtime._imports.when_imported`."""
    return {
        "http.client": lambda m: _patch_http_client(undo, m),
        "requests": lambda m: _patch_requests(undo, m),
        "httpx": lambda m: _patch_httpx(undo, m),
        "aiohttp": lambda m: patch_aiohttp(undo, m),
        "urllib3": lambda m: patch_urllib3(undo, m),
    }


def _call_through(method: str, url: str, api: str, call: Callable[[], Any]) -> Any:
    __tracebackhide__ = True
    try:
        with passing_through():
            return call()
    except Exception as exc:
        if passthrough_error(exc):
            raise require_session().cassette_miss(method, url, api) from None
        raise


# -- requests ------------------------------------------------------------------
class _RawResponse(io.BytesIO):
    """The body as a stream, with the header block where requests looks for cookies."""

    def __init__(self, body: bytes, pairs: list[tuple[str, str]]) -> None:
        import http.client  # here, not at the top: it imports socket (the guard patches it late)

        super().__init__(body)
        block = "".join(f"{k}: {v}\r\n" for k, v in pairs) + "\r\n"
        message = http.client.parse_headers(io.BytesIO(block.encode("latin-1")))
        self._original_response = types.SimpleNamespace(msg=message)
        self.headers = message

    def release_conn(self) -> None:
        return None


def _patch_requests(undo: Undo, requests: ModuleType) -> None:
    adapters = importlib.import_module("requests.adapters")
    models = importlib.import_module("requests.models")
    structures = importlib.import_module("requests.structures")
    cookies = importlib.import_module("requests.cookies")
    original = adapters.HTTPAdapter.send

    def send(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        method, url = request.method or "GET", request.url or ""
        session = require_session()
        body = request_bytes(request.body) if session.wants_body else None
        stub = session.resolve(method, url, "requests", request.headers, body)
        if stub is None:
            return _call_through(
                method, url, "requests", lambda: original(self, request, *args, **kwargs)
            )
        body = response_body(stub, method)
        pairs = header_pairs(stub_headers(stub))
        response = models.Response()
        response.status_code = stub.status
        response.reason = reason_phrase(stub.status)
        merged: dict[str, str] = {}
        for name, value in pairs:  # repeated headers joined, as urllib3 does
            merged[name] = f"{merged[name]}, {value}" if name in merged else value
        response.headers = structures.CaseInsensitiveDict(merged)
        response._content = body
        response._content_consumed = True
        # the raw response carries the header block, so requests' own cookie handling
        # (the response's jar here, the session's jar in Session.send) reads Set-Cookie
        response.raw = _RawResponse(body, pairs)
        cookies.extract_cookies_to_jar(response.cookies, request, response.raw)
        response.encoding = stub.charset()  # the one the stub names, else UTF-8
        response.url = url
        response.request = request
        response.connection = self
        return response

    undo.setattr(adapters.HTTPAdapter, "send", send)


# -- httpx ---------------------------------------------------------------------
def _patch_httpx(undo: Undo, httpx: ModuleType) -> None:
    original_sync = httpx.HTTPTransport.handle_request
    original_async = httpx.AsyncHTTPTransport.handle_async_request

    def build(stub: StubResponse, request: Any) -> Any:
        return httpx.Response(
            stub.status,
            headers=header_pairs(stub_headers(stub)),
            content=response_body(stub, request.method),
            request=request,
        )

    def handle_request(self: Any, request: Any) -> Any:
        __tracebackhide__ = True
        method, url = request.method, str(request.url)
        session = require_session()
        body = request.read() if session.wants_body else None
        stub = session.resolve(method, url, "httpx", request.headers, body)
        if stub is None:
            return _call_through(method, url, "httpx", lambda: original_sync(self, request))
        return build(stub, request)

    async def handle_async_request(self: Any, request: Any) -> Any:
        __tracebackhide__ = True
        method, url = request.method, str(request.url)
        session = require_session()
        body = (await request.aread()) if session.wants_body else None
        stub = session.resolve(method, url, "httpx", request.headers, body)
        if stub is None:
            try:
                return await original_async(self, request)
            except Exception as exc:
                if passthrough_error(exc):
                    raise require_session().cassette_miss(method, url, "httpx") from None
                raise
        return build(stub, request)

    undo.setattr(httpx.HTTPTransport, "handle_request", handle_request)
    undo.setattr(httpx.AsyncHTTPTransport, "handle_async_request", handle_async_request)


# -- http.client (and urllib.request, which uses it) ---------------------------
class _FakeSocket:
    def __init__(self, data: bytes) -> None:
        self._data = data

    def makefile(self, *args: Any, **kwargs: Any) -> io.BytesIO:
        return io.BytesIO(self._data)

    def close(self) -> None:
        return None


def _raw_response(stub: StubResponse, method: str) -> bytes:
    lines = [f"HTTP/1.1 {stub.status} {reason_phrase(stub.status)}"]
    lines += [f"{k}: {v}" for k, v in header_pairs(stub_headers(stub))]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + response_body(stub, method)


def _patch_http_client(undo: Undo, client: ModuleType) -> None:
    # HTTPSConnection inherits the patch, except under a vcrpy cassette,
    # whose replacement classes for the two are unrelated
    _patch_connection_class(undo, client, client.HTTPConnection)
    if not issubclass(client.HTTPSConnection, client.HTTPConnection):
        _patch_connection_class(undo, client, client.HTTPSConnection)


def _patch_connection_class(undo: Undo, client: ModuleType, connection: type) -> None:
    original_request = connection.request  # type: ignore[attr-defined]
    original_getresponse = connection.getresponse  # type: ignore[attr-defined]

    def full_url(self: Any, url: str) -> str:
        if url.startswith(("http://", "https://")):
            return url
        # vcrpy's connection classes wrap a real one and name their protocol
        real = getattr(self, "real_connection", self)
        https = getattr(self, "_protocol", None) == "https" or isinstance(
            real, client.HTTPSConnection
        )
        scheme, default = ("https", 443) if https else ("http", 80)
        port = "" if real.port in (None, default) else f":{real.port}"
        return f"{scheme}://{real.host}{port}{url}"

    def request(self: Any, method: str, url: str, *args: Any, **kwargs: Any) -> None:
        __tracebackhide__ = True
        target = full_url(self, url)
        body = kwargs.get("body", args[0] if args else None)
        headers = kwargs.get("headers", args[1] if len(args) > 1 else None) or {}
        try:
            stub = require_session().resolve(
                method, target, "http.client", headers, request_bytes(body)
            )
        except UnmockedAccessError as exc:
            # raised by getresponse(): urllib.request wraps an OSError (this error is a
            # URLError) from request() in a URLError of its own, hiding automock's error
            self._automock_pending = (method.upper(), target, exc)
            return
        if stub is None:
            self._automock_pending = (method.upper(), target, None)
            _call_through(
                method,
                target,
                "http.client",
                lambda: original_request(self, method, url, *args, **kwargs),
            )
            return
        self._automock_pending = (method.upper(), target, stub)

    def getresponse(self: Any) -> Any:
        __tracebackhide__ = True
        pending = vars(self).pop("_automock_pending", None)
        if pending is None:
            return original_getresponse(self)
        method, target, stub = pending
        if isinstance(stub, UnmockedAccessError):
            raise stub
        if stub is None:
            return _call_through(method, target, "http.client", lambda: original_getresponse(self))
        response = client.HTTPResponse(
            _FakeSocket(_raw_response(stub, method)), method=method, url=target
        )
        response.begin()
        return response

    undo.setattr(connection, "request", request)
    undo.setattr(connection, "getresponse", getresponse)
