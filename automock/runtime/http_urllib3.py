"""urllib3 used directly: a stub served as urllib3's own response.

``urllib3.PoolManager().request(...)``, ``urllib3.request(...)`` and a connection pool's
``request``/``urlopen`` all end in :meth:`HTTPConnectionPool.urlopen`, the one method
patched here (a pool manager follows redirects above it, by calling it again). requests
also sends through a pool's ``urlopen``, but only for a request it passes on (a cassette,
an allowed host): that request was resolved once already, by the requests patch, and goes
straight to urllib3 (:func:`~automock.runtime.http_passthrough.passing_through`).
"""

from __future__ import annotations

import importlib
import io
from types import ModuleType
from typing import Any

from automock.runtime._base import Undo
from automock.runtime.http_passthrough import passing_through, through
from automock.runtime.http_session import (
    header_pairs,
    passthrough_error,
    reason_phrase,
    request_bytes,
    require_session,
    response_body,
    stub_headers,
)

__all__ = ["patch_urllib3"]


def _full_url(pool: Any, url: str) -> str:
    if url.startswith(("http://", "https://")):
        return url
    default = 443 if pool.scheme == "https" else 80
    port = "" if pool.port in (None, default) else f":{pool.port}"
    host = f"[{pool.host}]" if ":" in pool.host else pool.host
    return f"{pool.scheme}://{host}{port}{url if url.startswith('/') else '/' + url}"


def patch_urllib3(undo: Undo, urllib3: ModuleType) -> None:
    pools = importlib.import_module("urllib3.connectionpool")
    responses = importlib.import_module("urllib3.response")
    collections = importlib.import_module("urllib3._collections")
    original = pools.HTTPConnectionPool.urlopen

    def urlopen(self: Any, method: str, url: str, body: Any = None, headers: Any = None,
                **kw: Any) -> Any:  # fmt: skip
        __tracebackhide__ = True
        if through():  # requests passed this one on: resolved already
            return original(self, method, url, body, headers, **kw)
        full = _full_url(self, url)
        session = require_session()
        sent = request_bytes(body) if session.wants_body else None
        stub = session.resolve(method, full, "urllib3", dict(headers or {}), sent)
        if stub is None:
            try:
                with passing_through():
                    return original(self, method, url, body, headers, **kw)
            except Exception as exc:
                if passthrough_error(exc):
                    raise require_session().cassette_miss(method, full, "urllib3") from None
                raise
        pairs = header_pairs(stub_headers(stub))
        return responses.HTTPResponse(
            body=io.BytesIO(response_body(stub, method)),
            headers=collections.HTTPHeaderDict(pairs),
            status=stub.status,
            version=11,
            version_string="HTTP/1.1",
            reason=reason_phrase(stub.status),
            preload_content=kw.get("preload_content", True),
            decode_content=kw.get("decode_content", True),
            request_method=method,
            request_url=full,
            enforce_content_length=False,
        )

    undo.setattr(pools.HTTPConnectionPool, "urlopen", urlopen)
