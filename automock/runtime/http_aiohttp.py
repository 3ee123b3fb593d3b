"""The aiohttp patch: ``ClientSession._request`` answered from the plan's stubs.

aiohttp's own ``_request`` sends the session's cookies, stores the cookies a
response sets and follows redirects; the patch replaces all of it, so it does
the same three things itself: the jar's cookies go out as a ``Cookie`` header
(stubs may match on it), each response's ``Set-Cookie`` lands in
``resp.cookies`` and the session's ``cookie_jar``, and a ``3xx`` with a
``Location`` is followed (``allow_redirects``, ``max_redirects``, a ``POST``
turned into a ``GET`` on 301/302/303, as aiohttp does) to the next stub, with
``resp.history``. A ``HEAD`` response has no body.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from types import ModuleType
from typing import Any

from automock.plan.model import StubResponse
from automock.runtime._base import Undo
from automock.runtime.http_session import (
    header_pairs,
    passthrough_error,
    reason_phrase,
    request_bytes,
    require_session,
    response_body,
    stub_headers,
)

__all__ = ["patch_aiohttp"]

_REDIRECTS = (301, 302, 303, 307, 308)


class _Content:
    """``resp.content``: the body as aiohttp's ``StreamReader`` hands it out, read
    whole, by size, by line, in chunks, or by ``async for`` over its lines."""

    def __init__(self, body: bytes) -> None:
        self._body, self._at = body, 0

    def _take(self, n: int) -> bytes:
        end = len(self._body) if n < 0 else min(self._at + n, len(self._body))
        out, self._at = self._body[self._at : end], end
        return out

    def at_eof(self) -> bool:
        return self._at >= len(self._body)

    async def read(self, n: int = -1) -> bytes:
        return self._take(n)

    async def readany(self) -> bytes:
        return self._take(-1)

    async def readexactly(self, n: int) -> bytes:
        if len(self._body) - self._at < n:
            import asyncio

            raise asyncio.IncompleteReadError(self._take(-1), n)
        return self._take(n)

    async def readline(self) -> bytes:
        end = self._body.find(b"\n", self._at)
        return self._take(-1 if end < 0 else end + 1 - self._at)

    async def readchunk(self) -> tuple[bytes, bool]:
        return self._take(-1), True

    async def iter_chunked(self, n: int) -> AsyncIterator[bytes]:
        while not self.at_eof():
            yield self._take(n)

    async def iter_any(self) -> AsyncIterator[bytes]:
        while not self.at_eof():
            yield self._take(-1)

    async def iter_chunks(self) -> AsyncIterator[tuple[bytes, bool]]:
        while not self.at_eof():
            yield self._take(-1), True

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[bytes]:
        while not self.at_eof():
            yield await self.readline()


class _AiohttpResponse:
    """Enough of ``aiohttp.ClientResponse`` for common use."""

    def __init__(self, aiohttp: ModuleType, method: str, url: Any, stub: StubResponse) -> None:
        from http.cookies import SimpleCookie

        from multidict import CIMultiDict, CIMultiDictProxy

        self._aiohttp = aiohttp
        self.method = method
        self.url = self.real_url = url
        self.status = stub.status
        self.reason = reason_phrase(stub.status)
        pairs = header_pairs(stub_headers(stub))
        self.headers = CIMultiDictProxy(CIMultiDict(pairs))
        self.cookies = SimpleCookie()
        for name, value in pairs:
            if name.lower() == "set-cookie":
                self.cookies.load(value)
        self._body = response_body(stub, method)
        self.content = _Content(self._body)
        self.content_length = len(self._body)
        self.content_type = stub.content_type().split(";", 1)[0].strip()
        self.charset = stub.charset()
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


def _request_headers(session: Any, url: Any, kwargs: dict[str, Any]) -> dict[str, str]:
    """The headers the request goes out with: the session's, the call's, and the jar's cookies."""
    headers = {
        **dict(getattr(session, "headers", None) or {}),
        **dict(kwargs.get("headers") or {}),
    }
    jar = getattr(session, "cookie_jar", None)
    sent = jar.filter_cookies(url) if jar is not None else {}
    pairs = [f"{k}={m.value}" for k, m in sent.items()]
    pairs += [f"{k}={v}" for k, v in dict(kwargs.get("cookies") or {}).items()]
    if pairs and not any(k.lower() == "cookie" for k in headers):
        headers["Cookie"] = "; ".join(pairs)
    return headers


def _next_method(status: int, method: str) -> str:
    if (status == 303 and method != "HEAD") or (status in (301, 302) and method == "POST"):
        return "GET"
    return method


def patch_aiohttp(undo: Undo, aiohttp: ModuleType) -> None:
    session_cls = aiohttp.ClientSession
    original = session_cls._request

    async def _request(self: Any, method: str, str_or_url: Any, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        import yarl

        build = getattr(self, "_build_url", None)
        url = build(str_or_url) if build is not None else yarl.URL(str_or_url)
        if params := kwargs.get("params"):
            url = url.extend_query(params)
        body = request_bytes(kwargs.get("data"))
        if kwargs.get("json") is not None:
            body = json.dumps(kwargs["json"]).encode("utf-8")
        method = method.upper()
        stub = require_session().resolve(
            method, str(url), "aiohttp", _request_headers(self, url, kwargs), body
        )
        if stub is None:
            try:
                return await original(self, method, str_or_url, *args, **kwargs)
            except Exception as exc:
                if passthrough_error(exc):
                    raise require_session().cassette_miss(method, str(url), "aiohttp") from None
                raise
        response = _AiohttpResponse(aiohttp, method, url, stub)
        if getattr(self, "cookie_jar", None) is not None:
            self.cookie_jar.update_cookies(response.cookies, url)
        location = response.headers.get("Location")
        hops = kwargs.pop("_automock_hops", ())
        if response.status in _REDIRECTS and location and kwargs.get("allow_redirects", True):
            if len(hops) >= kwargs.get("max_redirects", 10):
                raise aiohttp.TooManyRedirects(response.request_info, (*hops, response))
            after = _next_method(response.status, method)
            if after != method:
                kwargs = {k: v for k, v in kwargs.items() if k not in ("data", "json")}
            target = url.join(yarl.URL(location))
            return await _request(
                self, after, target, *args, _automock_hops=(*hops, response), **kwargs
            )
        response.history = tuple(hops)
        if kwargs.get("raise_for_status") is True:
            response.raise_for_status()
        return response

    undo.setattr(session_cls, "_request", _request)
