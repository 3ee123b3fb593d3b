"""The ``ipc``, ``uts`` and ``seccomp`` layers, observed by the parent from outside.

Part of :mod:`automock.sandbox.run.observe`: ``ns/ipc`` and ``ns/uts`` of the
program's process differ from ours; its ``status`` says ``Seccomp: 2`` (filter
mode) with ``Seccomp_filters``. The hostname inside cannot be read from
outside: that part of the ``uts`` detail is the sandbox's word, labelled.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from automock.sandbox.kernel.ipc import HOSTNAME
from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.seccomp import REFUSED

__all__ = ["KERNEL_LAYERS", "namespace_layers", "seccomp_layer"]

KERNEL_LAYERS = ("ipc", "uts", "seccomp")


def _off(fact: str, claim: LayerStatus | None) -> str:
    if claim is None or claim.active or claim.detail == fact:
        return fact
    return f"{fact} (the sandbox said: {claim.detail})"


def _same(pid: int, name: str) -> bool | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/{name}") == os.readlink(f"/proc/self/ns/{name}")
    except OSError:
        return None


def namespace_layers(pid: int, claims: Mapping[str, LayerStatus]) -> list[LayerStatus]:
    """``ipc`` and ``uts``: the program's namespaces differ from the parent's."""
    out = []
    if _same(pid, "ipc") is False:
        detail = "new IPC namespace: host SysV IPC and POSIX message queues out of reach"
        out.append(LayerStatus("ipc", True, detail))
    else:
        fact = "no IPC namespace: host SysV IPC and POSIX message queues reachable"
        out.append(LayerStatus("ipc", False, _off(fact, claims.get("ipc"))))
    if _same(pid, "uts") is False:
        claim = claims.get("uts")
        named = claim is not None and claim.active and repr(HOSTNAME) in claim.detail
        detail = "new UTS namespace" + (
            f", hostname {HOSTNAME!r} (set by the sandbox before the program started)"
            if named
            else ""
        )
        out.append(LayerStatus("uts", True, detail))
    else:
        fact = "no UTS namespace: the host's hostname is visible"
        out.append(LayerStatus("uts", False, _off(fact, claims.get("uts"))))
    return out


def seccomp_layer(status: Mapping[str, str], claims: Mapping[str, LayerStatus]) -> LayerStatus:
    """``seccomp``: the process is in filter mode (``Seccomp: 2``)."""
    if status.get("Seccomp") == "2":
        count = status.get("Seccomp_filters", "?")
        return LayerStatus(
            "seccomp", True, f"syscall filter in force ({count}); refuses with EPERM: {REFUSED}"
        )
    fact = "no syscall filter" + (
        f" (Seccomp: {status['Seccomp']})" if status.get("Seccomp") else ""
    )
    return LayerStatus("seccomp", False, _off(fact, claims.get("seccomp")))
