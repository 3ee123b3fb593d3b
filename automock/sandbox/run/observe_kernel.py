"""The ``ipc``, ``uts``, ``time``, ``hostfacts`` and ``seccomp`` layers, observed by the parent.

Part of :mod:`automock.sandbox.run.observe`: ``ns/ipc`` and ``ns/uts`` of the
program's process differ from ours; its ``status`` says ``Seccomp: 2`` (filter
mode) with ``Seccomp_filters``. The hostname inside cannot be read from
outside: that part of the ``uts`` detail is the sandbox's word, labelled.
``time``: ``ns/time`` differs from ours, and the offsets in its ``timens_offsets``
put its clocks, as the parent computes them from its own, near the fixed start.
``hostfacts``: each masked file, read through ``/proc/<pid>/root`` (the program's
own mount namespace), holds the fixed text and not the host's.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from automock.sandbox.kernel.hostfacts import (
    CLOCK_START_S,
    clocks_of,
    listed_cpus,
    masked_contents,
    near_start,
)
from automock.sandbox.kernel.ipc import HOSTNAME
from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.seccomp import REFUSED

__all__ = ["KERNEL_LAYERS", "namespace_layers", "seccomp_layer"]

KERNEL_LAYERS = ("ipc", "uts", "time", "hostfacts", "seccomp")


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
    """``ipc`` and ``uts``: the program's namespaces differ from the parent's; then ``time``
    and ``hostfacts``."""
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
    return out + _host_layers(pid, claims)


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


def _masked(pid: int) -> tuple[list[str], list[str]]:
    """(paths that hold the fixed text, paths that do not) in the program's mount namespace."""
    held: list[str] = []
    not_held: list[str] = []
    for path, expected in masked_contents(listed_cpus()).items():
        try:
            with open(f"/proc/{pid}/root{path}", encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            text = None
        (held if text == expected else not_held).append(path)
    return held, not_held


def _host_layers(pid: int, claims: Mapping[str, LayerStatus]) -> list[LayerStatus]:
    """``time`` and ``hostfacts``: the program's clocks start at the fixed point, and the host
    facts in its ``/proc`` are the fixed files."""
    if _same(pid, "time") is False and near_start(clocks_of(pid)):
        detail = (
            f"new time namespace: CLOCK_MONOTONIC and CLOCK_BOOTTIME start at {CLOCK_START_S} s "
            "(its timens_offsets put them there), not at the host's uptime"
        )
        clock = LayerStatus("time", True, detail)
    else:
        fact = "no time namespace: the program reads the host's uptime from its clocks"
        clock = LayerStatus("time", False, _off(fact, claims.get("time")))
    held, not_held = _masked(pid)
    if not not_held:
        facts = LayerStatus("hostfacts", True, f"fixed read-only files over {', '.join(held)}")
    else:
        fact = f"the host's own {', '.join(not_held)}"
        facts = LayerStatus("hostfacts", False, _off(fact, claims.get("hostfacts")))
    return [clock, facts]
