"""What an inline stub can do beyond a plan entry, and the client-shaped unmocked error.

A test's inline stub (:mod:`automock.runtime.http_stubs`) may carry a ``callback`` (a
function of the :class:`~automock.runtime.http_match.Request` that returns the response)
or ``raises`` (an exception raised in place of a response, e.g. the client's own
timeout). Plans cannot hold either: they are code, so they live beside the stub in the
network session (:class:`StubOptions`), keyed by the stub object.

An unmatched request raises an error that is both automock's
:class:`~automock.errors.UnmockedAccessError` and the calling client's own connection
error (:func:`client_error_type`), so ``except requests.ConnectionError`` fallbacks run
as they would with the network down, and ``pytest.raises(UnmockedAccessError)`` still
catches it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from automock.errors import InputError, UnmockedAccessError
from automock.plan.model import StubResponse

__all__ = ["FAILURES", "StubOptions", "callback_response", "client_error_type", "failure_for"]

# api name (as http_clients.py passes it) -> (module, class) of the client's connection error
_CLIENT_ERRORS = {
    "requests": ("requests.exceptions", "ConnectionError"),
    "httpx": ("httpx", "ConnectError"),
    "http.client": ("urllib.error", "URLError"),  # urllib.request's, an OSError
    "aiohttp": ("aiohttp", "ClientConnectionError"),
    "urllib3": ("urllib3.exceptions", "HTTPError"),  # the root of what its pools raise
}
_made: dict[str, type[UnmockedAccessError]] = {}

# raises="connection" / "timeout": (api, failure) -> the error that client raises for it;
# http.client raises the OSError a socket would (urllib.request wraps it in URLError)
FAILURES = ("connection", "timeout")
_FAILURE_ERRORS = {
    ("requests", "connection"): ("requests.exceptions", "ConnectionError"),
    ("requests", "timeout"): ("requests.exceptions", "ReadTimeout"),
    ("httpx", "connection"): ("httpx", "ConnectError"),
    ("httpx", "timeout"): ("httpx", "ReadTimeout"),
    ("aiohttp", "connection"): ("aiohttp", "ClientConnectionError"),
    ("aiohttp", "timeout"): ("aiohttp", "ServerTimeoutError"),
}
_FAILURE_FALLBACK: dict[str, type[OSError]] = {
    "connection": ConnectionRefusedError,
    "timeout": TimeoutError,
}


def failure_for(failure: str, api: str, target: str) -> BaseException:
    """The error ``api``'s client raises when a connection is refused or times out."""
    module, name = _FAILURE_ERRORS.get((api, failure), ("", ""))
    error = getattr(sys.modules.get(module), name, None)
    if not isinstance(error, type) or not issubclass(error, BaseException):
        error = _FAILURE_FALLBACK[failure]
    what = "connection refused" if failure == "connection" else "timed out"
    return error(f"{target}: {what} (an automock stub with raises={failure!r})")


def client_error_type(api: str) -> type[UnmockedAccessError]:
    """``UnmockedAccessError`` that is also ``api``'s connection error (the client is loaded,
    it is the one calling); plain ``UnmockedAccessError`` for any other api."""
    if api in _made:
        return _made[api]
    module, name = _CLIENT_ERRORS.get(api, ("", ""))
    base = getattr(sys.modules.get(module), name, None)
    if not isinstance(base, type) or not issubclass(base, BaseException):
        return UnmockedAccessError
    # named UnmockedAccessError (it is one): what a program prints of type(exc).__name__
    # stays the same whichever client raised it; its module tells the two classes apart
    made = type(
        "UnmockedAccessError",
        (UnmockedAccessError, base),
        {"__module__": __name__, "__doc__": f"An unmocked request: {module}.{name} too."},
    )
    _made[api] = made
    return made


@dataclass(frozen=True, slots=True)
class StubOptions:
    """An inline stub's code: ``callback(request)`` computes the response; ``raises`` is
    raised instead of answering (``"connection"``/``"timeout"``: the calling client's own
    error for that, :func:`failure_for`)."""

    callback: Callable[[Any], Any] | None = None
    raises: BaseException | type[BaseException] | str | None = None


def callback_response(value: Any, where: str) -> StubResponse:
    """A callback's result as a response: a :class:`StubResponse`, a plan-style dict
    (``{"status": 200, "json": {...}}``) or responses' ``(status, headers, body)`` tuple."""
    if isinstance(value, StubResponse):
        return value
    if isinstance(value, Mapping):
        return StubResponse.from_dict(dict(value), where)
    if isinstance(value, tuple) and len(value) == 3:
        status, headers, body = value
        text = body.decode("utf-8") if isinstance(body, bytes) else body
        if not isinstance(text, str):
            raise InputError(f"{where}: the callback's body must be str or bytes, got {body!r}")
        return StubResponse.from_dict(
            {"status": status, "headers": dict(headers or {}), "text": text}, where
        )
    raise InputError(
        f"{where}: a callback returns (status, headers, body), a dict like "
        f'{{"status": 200, "json": {{}}}} or a StubResponse, got {type(value).__name__}'
    )
