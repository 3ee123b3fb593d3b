"""Socket-level fail-closed guard (diagnostics, not a security boundary).

Inside :func:`socket_guard`, ``socket.socket.connect``/``connect_ex``,
``socket.create_connection`` and ``socket.getaddrinfo`` refuse every
non-Unix-domain target with :class:`~automock.errors.UnmockedAccessError` and
record an unmocked Access. It catches HTTP libraries automock does not patch
(urllib3 used directly, websockets, raw sockets), so even a library imported
after entering the runtime cannot reach the network. Code that goes around
the ``socket`` module (ctypes, C extensions) is not stopped here: that is
the sandbox's network namespace's job.

``socket_guard(allow_hosts=["127.0.0.1", "localhost"])`` lets connections and look-ups of
those hosts through (pytest-socket's ``--allow-hosts``; see
:mod:`automock.runtime.http_passthrough`), e.g. for a test of a server it starts itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from automock.errors import UnmockedAccessError
from automock.runtime._base import Patch, Undo
from automock.runtime._imports import when_imported
from automock.runtime.events import record
from automock.runtime.http_passthrough import allowed_hosts, host_allowed

if TYPE_CHECKING:
    import socket

__all__ = ["refuse_connection", "socket_guard"]

_FIX = (
    "mock it in the plan (a stub_http entry for an HTTP client automock patches, or a "
    "cassette), or allow the network explicitly (--allow-network / network: allow)"
)


def _describe(address: Any) -> str:
    if isinstance(address, tuple) and len(address) >= 2:
        return f"{address[0]}:{address[1]}"
    return str(address)


def refuse_connection(api: str, target: str) -> UnmockedAccessError:
    """Record an unmocked network access and return the error to raise."""
    record("network", api, target, mocked=False, fix=_FIX)
    return UnmockedAccessError(
        f"unmocked network connection to {target} ({api})",
        kind="network",
        api=api,
        target=target,
        fix=_FIX,
    )


def _is_local_ipc(sock: socket.socket) -> bool:
    family = getattr(sock, "family", None)
    return family is not None and getattr(family, "name", "") == "AF_UNIX"


class socket_guard(Patch[None]):
    """Refuse outgoing TCP/UDP connections and name resolution while active (but to
    ``allow_hosts``)."""

    def __init__(self, *, allow_hosts: Iterable[str] = ()) -> None:
        super().__init__()
        self.allow_hosts = allowed_hosts(allow_hosts)

    def _start(self, undo: Undo) -> None:
        # patched when the program (or a library) imports socket, now or later
        allowed = self.allow_hosts
        when_imported(undo, {"socket": lambda module: _patch_socket(undo, module, allowed)})


def _host(address: Any) -> Any:
    return address[0] if isinstance(address, tuple) and address else None


def _patch_socket(undo: Undo, socket: ModuleType, allowed: frozenset[str]) -> None:
    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_create_connection = socket.create_connection
    original_getaddrinfo = socket.getaddrinfo

    def connect(self: Any, address: Any) -> None:
        if _is_local_ipc(self) or host_allowed(_host(address), allowed):
            original_connect(self, address)
            return
        raise refuse_connection("socket.connect", _describe(address))

    def connect_ex(self: Any, address: Any) -> int:
        if _is_local_ipc(self) or host_allowed(_host(address), allowed):
            return int(original_connect_ex(self, address))
        raise refuse_connection("socket.connect", _describe(address))

    def create_connection(address: Any, *args: Any, **kwargs: Any) -> Any:
        if host_allowed(_host(address), allowed):
            return original_create_connection(address, *args, **kwargs)
        raise refuse_connection("socket.create_connection", _describe(address))

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host_allowed(host, allowed):
            return original_getaddrinfo(host, port, *args, **kwargs)
        raise refuse_connection("socket.getaddrinfo", _describe((host, port)))

    undo.setattr(socket.socket, "connect", connect)
    undo.setattr(socket.socket, "connect_ex", connect_ex)
    undo.setattr(socket, "create_connection", create_connection)
    undo.setattr(socket, "getaddrinfo", getaddrinfo)
