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
import json
from collections.abc import Callable
from types import ModuleType
from typing import Any

from automock.errors import UnmockedAccessError
from automock.plan.model import StubResponse
from automock.runtime._base import Undo
from automock.runtime.http_session import (
    passthrough_error,
    reason_phrase,
    require_session,
    stub_headers,
)

__all__ = ["patchers"]


def patchers(undo: Undo) -> dict[str, Callable[[ModuleType], None]]:
    """Module name -> patch function, for :func:`~automock.runtime._imports.when_imported`."""
    return {
        "http.client": lambda m: _patch_http_client(undo, m),
        "requests": lambda m: _patch_requests(undo, m),
        "httpx": lambda m: _patch_httpx(undo, m),
        "aiohttp": lambda m: _patch_aiohttp(undo, m),
    }


def _bytes(body: Any) -> bytes | None:
    """A request body as bytes, when it is held in memory (a stream or file: None)."""
    if isinstance(body, bytes | bytearray | memoryview):
        return bytes(body)
    if isinstance(body, str):
        return body.encode("utf-8")
    return None


def _call_through(method: str, url: str, api: str, call: Callable[[], Any]) -> Any:
    __tracebackhide__ = True
    try:
        return call()
    except Exception as exc:
        if passthrough_error(exc):
            raise require_session().cassette_miss(method, url, api) from None
        raise


# -- requests ------------------------------------------------------------------
def _patch_requests(undo: Undo, requests: ModuleType) -> None:
    adapters = importlib.import_module("requests.adapters")
    models = importlib.import_module("requests.models")
    structures = importlib.import_module("requests.structures")
    original = adapters.HTTPAdapter.send

    def send(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        method, url = request.method or "GET", request.url or ""
        session = require_session()
        body = _bytes(request.body) if session.wants_body else None
        stub = session.resolve(method, url, "requests", request.headers, body)
        if stub is None:
            return _call_through(
                method, url, "requests", lambda: original(self, request, *args, **kwargs)
            )
        body = stub.body_bytes()
        response = models.Response()
        response.status_code = stub.status
        response.reason = reason_phrase(stub.status)
        response.headers = structures.CaseInsensitiveDict(stub_headers(stub))
        response._content = body
        response._content_consumed = True
        response.raw = io.BytesIO(body)
        response.encoding = "utf-8"
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
            stub.status, headers=stub_headers(stub), content=stub.body_bytes(), request=request
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


def _raw_response(stub: StubResponse) -> bytes:
    lines = [f"HTTP/1.1 {stub.status} {reason_phrase(stub.status)}"]
    lines += [f"{k}: {v}" for k, v in stub_headers(stub).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + stub.body_bytes()


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
            stub = require_session().resolve(method, target, "http.client", headers, _bytes(body))
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
        response = client.HTTPResponse(_FakeSocket(_raw_response(stub)), method=method, url=target)
        response.begin()
        return response

    undo.setattr(connection, "request", request)
    undo.setattr(connection, "getresponse", getresponse)


# -- aiohttp -------------------------------------------------------------------
class _AiohttpResponse:
    """Enough of ``aiohttp.ClientResponse`` for common use."""

    def __init__(self, aiohttp: ModuleType, method: str, url: Any, stub: StubResponse) -> None:
        from multidict import CIMultiDict, CIMultiDictProxy

        self._aiohttp = aiohttp
        self.method = method
        self.url = self.real_url = url
        self.status = stub.status
        self.reason = reason_phrase(stub.status)
        self.headers = CIMultiDictProxy(CIMultiDict(stub_headers(stub)))
        self._body = stub.body_bytes()
        self.content_type = stub.content_type().split(";", 1)[0].strip()
        self.charset = "utf-8"
        self.history: tuple[Any, ...] = ()
        self.closed = False

    @property
    def ok(self) -> bool:
        return self.status < 400

    @property
    def request_info(self) -> Any:
        return self._aiohttp.RequestInfo(self.url, self.method, self.headers, self.url)

    async def read(self) -> bytes:
        return self._body

    async def text(self, encoding: str | None = None, errors: str = "strict") -> str:
        return self._body.decode(encoding or self.charset, errors)

    async def json(
        self,
        *,
        encoding: str | None = None,
        loads: Callable[[str], Any] = json.loads,
        content_type: str | None = "application/json",
    ) -> Any:
        text = self._body.decode(encoding or self.charset).strip()
        return loads(text) if text else None

    def raise_for_status(self) -> None:
        if self.status >= 400:
            raise self._aiohttp.ClientResponseError(
                self.request_info, (), status=self.status, message=self.reason, headers=self.headers
            )

    def release(self) -> None:
        self.closed = True

    def close(self) -> None:
        self.closed = True

    async def wait_for_close(self) -> None:
        self.closed = True

    async def __aenter__(self) -> _AiohttpResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.release()


def _patch_aiohttp(undo: Undo, aiohttp: ModuleType) -> None:
    session_cls = aiohttp.ClientSession
    original = session_cls._request

    async def _request(self: Any, method: str, str_or_url: Any, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        import yarl

        build = getattr(self, "_build_url", None)
        url = build(str_or_url) if build is not None else yarl.URL(str_or_url)
        params = kwargs.get("params")
        if params:
            url = url.extend_query(params)
        headers = {
            **dict(getattr(self, "headers", None) or {}),
            **dict(kwargs.get("headers") or {}),
        }
        body = _bytes(kwargs.get("data"))
        if kwargs.get("json") is not None:
            body = json.dumps(kwargs["json"]).encode("utf-8")
        stub = require_session().resolve(method, str(url), "aiohttp", headers, body)
        if stub is None:
            try:
                return await original(self, method, str_or_url, *args, **kwargs)
            except Exception as exc:
                if passthrough_error(exc):
                    raise require_session().cassette_miss(method, str(url), "aiohttp") from None
                raise
        response = _AiohttpResponse(aiohttp, method.upper(), url, stub)
        if kwargs.get("raise_for_status") is True:
            response.raise_for_status()
        return response

    undo.setattr(session_cls, "_request", _request)
