"""Requests the fail-closed network lets through: the test's own mock library, allowed hosts.

Two exceptions to "a request no stub serves is refused", both for tests run in-process
(the pytest plugin, :func:`~automock.runtime.deterministic`):

* **the user's HTTP mock library wins for the client it mocks**: while respx routes are
  active (``respx.mock``, any router), an httpx request goes on to httpx's transport, where
  respx answers it (or raises its own "not mocked" error). responses (and any library that
  replaces ``HTTPAdapter.send`` / ``HTTPTransport.handle_request`` /
  ``ClientSession._request``) started *before* the block is found at its start and gets the
  client's requests the same way; one started inside the block sits above automock's patch
  and answers first by itself.
* **allowed hosts** (``allow_hosts=["127.0.0.1", "localhost"]``, pytest-socket's
  ``--allow-hosts``): a request to one of them goes out for real, and the socket guard
  (:mod:`automock.runtime.guard`) lets connections to them through; every other host stays
  refused. ``"localhost"`` also allows ``127.0.0.1`` and ``::1``, and the other way round.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
from collections.abc import Iterable, Iterator

__all__ = [
    "allowed_hosts",
    "foreign_mock",
    "foreign_mocks_at_start",
    "host_allowed",
    "passing_through",
    "through",
    "url_host_allowed",
]

_LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

# the client (the ``api`` the patches report) -> (module, class, method) a mock library replaces
_CLIENT_METHODS = {
    "requests": ("requests.adapters", "HTTPAdapter", "send"),
    "httpx": ("httpx", "HTTPTransport", "handle_request"),
    "aiohttp": ("aiohttp", "ClientSession", "_request"),
    "urllib3": ("urllib3.connectionpool", "HTTPConnectionPool", "urlopen"),
}

# set while a client's request that was resolved already goes on to the library below it
# (requests' passthrough sends through urllib3, whose patch must not resolve it again)
_THROUGH: contextvars.ContextVar[bool] = contextvars.ContextVar("automock_through", default=False)


@contextlib.contextmanager
def passing_through() -> Iterator[None]:
    """A resolved request passed on to the real client: no inner patch resolves it again."""
    token = _THROUGH.set(True)
    try:
        yield
    finally:
        _THROUGH.reset(token)


def through() -> bool:
    """Whether the request being sent now was resolved already (see :func:`passing_through`)."""
    return _THROUGH.get()


def allowed_hosts(hosts: Iterable[str]) -> frozenset[str]:
    """The normalised set: lower case, no brackets; any loopback name allows all three."""
    example = 'e.g. allow_hosts=["127.0.0.1", "localhost"]'
    if isinstance(hosts, str | bytes) or not isinstance(hosts, Iterable):
        raise ValueError(f"allow_hosts: expected a list of hosts, {example}; got {hosts!r}")
    names = set()
    for host in hosts:
        if not isinstance(host, str) or not host.strip():
            raise ValueError(
                f"allow_hosts: expected host names or addresses, {example}; got {host!r}"
            )
        names.add(host.strip().strip("[]").lower())
    if names & _LOOPBACK_NAMES:
        names |= _LOOPBACK_NAMES
    return frozenset(names)


def host_allowed(host: object, allowed: frozenset[str]) -> bool:
    """Whether ``host`` (a name or address, as a socket call or a URL gives it) is allowed."""
    if not allowed or not isinstance(host, str | bytes):
        return False
    name = host.decode("ascii", "replace") if isinstance(host, bytes) else host
    return name.strip("[]").lower() in allowed


def url_host_allowed(url: str, allowed: frozenset[str]) -> bool:
    """Whether the host of ``url`` is allowed."""
    if not allowed:
        return False
    from urllib.parse import urlsplit  # here: entering the runtime stays free of urllib

    try:
        host = urlsplit(url).hostname
    except ValueError:
        return False
    return host is not None and host_allowed(host, allowed)


def _respx_active() -> bool:
    mocks = sys.modules.get("respx.mocks")
    mocker = getattr(mocks, "Mocker", None)
    registry = getattr(mocker, "registry", None)
    if registry is None:
        return False
    return any(getattr(cls, "routers", None) for cls in registry.values())


def foreign_mocks_at_start() -> dict[str, str]:
    """Client -> the module of a foreign replacement of its send method, found at block start.

    Called before automock patches the clients; a replacement defined in automock itself
    (an outer block's) is not foreign.
    """
    found: dict[str, str] = {}
    for api, (module_name, class_name, method) in _CLIENT_METHODS.items():
        cls = getattr(sys.modules.get(module_name), class_name, None)
        if cls is None:
            continue
        current = vars(cls).get(method)
        if current is None:
            continue
        owner = str(getattr(current, "__module__", None) or type(current).__module__)
        package = owner.split(".", 1)[0]
        if package not in (cls.__module__.split(".", 1)[0], "automock"):
            found[api] = package
    return found


def foreign_mock(api: str, at_start: dict[str, str]) -> str | None:
    """The mock library that should answer this client's request now, or None."""
    if api == "httpx" and _respx_active():
        return "respx"
    return at_start.get(api)
