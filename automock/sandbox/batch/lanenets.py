"""The batch pool's network namespaces: one empty namespace per lane, reused while it stays so.

A lane runs one candidate at a time and goes to a new child only once its previous
child was reaped (:mod:`automock.sandbox.batch.pool`), so a lane's namespace holds
nobody between two candidates. Before handing it to the next child the pool reads
it from outside (:meth:`~automock.sandbox.kernel.netns.EmptyNetwork.changed`): as it
was made, it is reused; otherwise it is dropped and a new one made. A child joins
it with ``setns`` and its candidate runs under the filter that refuses every socket
but an ``AF_UNIX`` stream pair (:data:`automock.sandbox.kernel.seccomp.NO_SOCKETS`).

Only where it is safe and possible: the network denied, the pool root (making a
namespace needs it) and the children forked by the zygote (which receives the fd).
Otherwise :meth:`LaneNetworks.for_lane` returns None and each child makes its own.
The layer a candidate reports is then the pool's observation from outside
(:meth:`LaneNetworks.observe`), not the child's word.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.netns import WATCHED, EmptyNetwork

__all__ = ["LaneNetworks"]


class LaneNetworks:
    """Lane -> its empty network namespace, made on first use, checked before each reuse."""

    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled and sys.platform.startswith("linux") and os.geteuid() == 0
        self._lanes: dict[int, EmptyNetwork] = {}
        self.made = 0
        self.renewed = 0  # namespaces found changed before a reuse, replaced
        self.reused = 0

    def for_lane(self, lane: int) -> EmptyNetwork | None:
        """``lane``'s namespace for its next child (as made), or None: the child makes one."""
        if not self.enabled:
            return None
        net = self._lanes.get(lane)
        if net is not None:
            if net.pristine():
                self.reused += 1
                net.uses += 1
                return net
            self.renewed += 1
            net.close()
            del self._lanes[lane]
        try:
            net = EmptyNetwork.create()
        except OSError:
            self.enabled = False  # the kernel refuses: every child makes its own from now on
            return None
        self.made += 1
        net.uses = 1
        self._lanes[lane] = net
        return net

    @staticmethod
    def given(net: EmptyNetwork | None) -> tuple[str, int] | None:
        """What a child forked to join ``net`` should show (see :meth:`observe`)."""
        if net is None:
            return None
        try:
            return f"net:[{os.fstat(net.fd).st_ino}]", net.uses
        except OSError:
            return None

    @staticmethod
    def observe(pid: int, given: tuple[str, int]) -> dict[str, Any] | None:
        """The ``network`` layer of child ``pid``, given the namespace :meth:`given` described,
        as the pool sees it from outside; None when it is not in it (yet: a child joins it
        before it moves into its cgroup, but the pool moves a slow one itself): its own
        report stands, as for a child that made its own."""
        link, use = given
        try:
            seen = os.readlink(f"/proc/{pid}/ns/net")
        except OSError:
            return None
        if seen != link:
            return None
        detail = (
            f"the lane's empty network namespace (candidate {use} in it), seen from outside; "
            f"found as made before this candidate ({', '.join(WATCHED)} in /proc/net); "
            "no interface up, no socket can be made in it"
        )
        return LayerStatus("network", True, detail).to_dict()

    def close(self) -> None:
        for net in self._lanes.values():
            net.close()
        self._lanes.clear()
