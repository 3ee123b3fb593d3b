"""An empty network namespace kept across candidates, and the check that it is still empty.

A new network namespace per candidate costs ~1 ms in the process that makes it and
more in a kernel worker that tears it down, which no cgroup of the candidate's sees.
A namespace nobody can put anything into can be kept instead: the batch pool makes
one per lane (:class:`EmptyNetwork`), each child of the lane joins it with ``setns``
before its candidate exists, and the candidate runs under the seccomp filter that
refuses ``socket()`` for every family, ``socketpair()`` except the ``AF_UNIX`` stream
pair Python's own ``asyncio`` and ``multiprocessing`` make, and ``bind()``
(:data:`automock.sandbox.kernel.seccomp.NO_SOCKETS`). A socket pair leaves the
namespace with the last process holding it; anything that outlived its candidate
(a pair kept in flight, a counter that moved) shows in the namespace's own files.

So before each reuse the pool reads, from outside, the namespace's ``/proc/net/snmp``,
``/proc/net/unix``, ``/proc/net/sockstat`` and ``sockstat6`` through files it opened
when it made the namespace (an open ``/proc/<tid>/net`` file keeps reading the
namespace it was opened in) and compares them with what they read then
(:meth:`EmptyNetwork.pristine`); the fields ``sockstat`` shows for the whole host
(``orphan``, ``alloc``, ``mem``) are left out. Any other difference: the pool drops
the namespace and makes a new one.

Runs that allow the network (or loopback) never reuse one: each gets its own.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys

from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.syscalls import CLONE_NEWNET, reason, setns, unshare

__all__ = ["WATCHED", "EmptyNetwork", "comparable", "join", "joined", "network_layer"]

WATCHED = ("snmp", "unix", "sockstat", "sockstat6")  # /proc/net files compared before a reuse
_HOST_WIDE = re.compile(rb" (?:orphan|alloc|mem) \d+")  # sockstat fields counted host-wide


_JOINED: list[bool] = []  # this process joined a lane's namespace (so: no socket for it)


def joined() -> bool:
    """Whether this process joined a reused namespace (:func:`network_layer` with ``join``)."""
    return bool(_JOINED)


def join(fd: int) -> bool:
    """Join the reused namespace ``fd`` (closed here); False: refused (make a new one then)."""
    try:
        setns(fd, CLONE_NEWNET)
    except OSError:
        return False
    finally:
        os.close(fd)
    _JOINED[:] = [True]
    return True


def network_layer(allow: bool) -> LayerStatus:
    """The ``network`` layer: a new namespace with no interface up, or a lane's empty one
    joined ahead (:func:`join`); the real network with ``allow``."""
    if allow:
        return LayerStatus("network", False, "real network allowed by --allow-network")
    if not sys.platform.startswith("linux"):
        return LayerStatus(
            "network", False, f"network namespaces need Linux (this is {sys.platform})"
        )
    if joined():
        return LayerStatus(
            "network",
            True,
            "the lane's empty network namespace, reused (no interface up, not even loopback; "
            "checked as made before each candidate; no socket can be made in it)",
        )
    try:
        unshare(CLONE_NEWNET)
    except OSError as exc:
        return LayerStatus("network", False, f"unshare(CLONE_NEWNET) refused ({reason(exc)})")
    return LayerStatus(
        "network", True, "new network namespace with no interface up (not even loopback)"
    )


def comparable(name: str, text: bytes) -> bytes:
    """``text`` of watched file ``name`` without what it counts for the whole host."""
    return _HOST_WIDE.sub(b"", text) if name.startswith("sockstat") else text


class EmptyNetwork:
    """One network namespace with no interface up, made by this process (root).

    ``fd`` (``/proc/<tid>/ns/net``) is what a child joins; the namespace lives as long
    as that fd or a child in it does.
    """

    def __init__(self, fd: int, files: dict[str, int], baseline: dict[str, bytes]) -> None:
        self.fd = fd
        self._files = files
        self._baseline = baseline
        self.uses = 0  # children given this namespace so far

    @classmethod
    def create(cls) -> EmptyNetwork:
        """Make a namespace in this thread and come back to this thread's own (OSError: the
        kernel refused; this thread's namespace is then unchanged)."""
        own = os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        files: dict[str, int] = {}
        fd = -1
        try:
            unshare(CLONE_NEWNET)
            try:
                fd = os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
                for name in WATCHED:
                    path = f"/proc/thread-self/net/{name}"
                    files[name] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            finally:
                setns(own, CLONE_NEWNET)
            made = cls(fd, files, {})
            made._baseline = made.contents()
            return made
        except OSError:
            for handle in [fd, *files.values()]:
                if handle >= 0:
                    os.close(handle)
            raise
        finally:
            os.close(own)

    def contents(self) -> dict[str, bytes]:
        """The watched files as they read now (host-wide fields left out)."""
        out = {}
        for name, fd in self._files.items():
            chunks, offset = [], 0
            while chunk := os.pread(fd, 65536, offset):
                chunks.append(chunk)
                offset += len(chunk)
            out[name] = comparable(name, b"".join(chunks))
        return out

    def changed(self) -> list[str]:
        """The watched files that differ from when the namespace was made (``[]``: none)."""
        try:
            now = self.contents()
        except OSError:
            return list(WATCHED)
        return [name for name in WATCHED if now.get(name) != self._baseline.get(name)]

    def pristine(self) -> bool:
        """Whether the namespace reads as it did when it was made."""
        return not self.changed()

    def close(self) -> None:
        for handle in [self.fd, *self._files.values()]:
            with contextlib.suppress(OSError):
                os.close(handle)
        self._files.clear()
        self.fd = -1
