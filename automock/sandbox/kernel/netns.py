"""Network namespaces kept per batch lane: made once, each child forked into its lane's.

A fresh network namespace per candidate costs ~1.2 ms of CPU to make and tear
down (the teardown runs later, in a kernel worker), about half of a trivial
candidate's whole sandbox. A lane runs one candidate at a time, and a network
namespace in which nobody holds ``CAP_NET_ADMIN`` carries nothing from one
process to the next once every process of the first is gone:

- no interface is up, not even loopback (nothing configures it: the candidate's
  uid has no capability in it, and only automock's own code ran as root there),
  so no TCP/UDP traffic, no connection state, no ``TIME_WAIT`` socket;
- sockets (abstract Unix names, bound ports, netlink) belong to their open
  files, which the kernel closes when the last process holding them exits;
- routes, netfilter rules, sysctls and interfaces need ``CAP_NET_ADMIN``.

So the pool frees a lane only when its previous child was reaped: the child is
init of its PID namespace, whose exit waits for every other process of it.
:class:`LaneNetworks` is the zygote's: it makes one namespace per lane key (the
lane's uid) and forks each child of that lane inside it (``setns`` in, fork,
``setns`` back: the zygote is single-threaded). The test
``tests/adversarial/test_lane_reuse.py`` attacks it: one candidate leaves a
listening abstract socket, a bound port and a forked daemon behind, and the next
candidate of the lane, in the same namespace, finds none of them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import TypeVar

from automock.sandbox.kernel.mountns import setns
from automock.sandbox.kernel.syscalls import CLONE_NEWNET, unshare

__all__ = ["LANE_NETWORK", "LaneNetworks"]

T = TypeVar("T")

LANE_NETWORK = (
    "the lane's own network namespace, no interface up (not even loopback); "
    "entered by one candidate at a time, after every process of the previous one exited"
)


class LaneNetworks:
    """One network namespace per lane key; :meth:`fork` runs a fork inside the key's."""

    def __init__(self) -> None:
        self._home = os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        self._lanes: dict[int, int] = {}

    @classmethod
    def create(cls) -> LaneNetworks | None:
        """The keeper, or None when this process cannot make network namespaces."""
        try:
            keeper = cls()
            keeper._namespace(-1)  # a probe: can we make one and come back?
        except OSError:
            return None
        return keeper

    def _namespace(self, key: int) -> int:
        fd = self._lanes.get(key)
        if fd is None:
            unshare(CLONE_NEWNET)
            try:
                fd = os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
            finally:
                setns(self._home, CLONE_NEWNET)
            self._lanes[key] = fd
        return fd

    def fork(self, key: int, fork: Callable[[], T], is_child: Callable[[T], bool]) -> T:
        """``fork()`` with the calling thread in ``key``'s namespace; back home after."""
        setns(self._namespace(key), CLONE_NEWNET)
        forked = False
        try:
            result = fork()
            forked = True
        finally:
            if not forked or not is_child(result):
                setns(self._home, CLONE_NEWNET)
        return result

    def close(self) -> None:
        for fd in (*self._lanes.values(), self._home):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._lanes.clear()
