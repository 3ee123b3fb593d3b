"""The ``ipc`` and ``uts`` layers: new IPC and UTS namespaces, a fixed hostname.

In a new IPC namespace the host's SysV message queues, semaphores and shared
memory and its POSIX message queues are out of reach, and whatever the program
creates dies with the namespace (when its last process exits). In a new UTS
namespace the hostname is :data:`HOSTNAME` (and the NIS domain the kernel's
default), whatever the host is called, so a program that prints it is
deterministic and learns nothing of the host.
"""

from __future__ import annotations

import os
import sys

from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.syscalls import CLONE_NEWIPC, CLONE_NEWUTS, libc, reason, unshare

__all__ = ["HOSTNAME", "ipc_uts"]

HOSTNAME = "automock"
_DOMAIN = "(none)"  # what a fresh kernel reports


def _off(name: str, why: str) -> LayerStatus:
    return LayerStatus(name, False, why)


def _name_host() -> str | None:
    """Set the hostname and domain name in our new UTS namespace; None, or why not."""
    import ctypes

    for call, value in (("sethostname", HOSTNAME), ("setdomainname", _DOMAIN)):
        data = value.encode()
        if getattr(libc(), call)(data, ctypes.c_size_t(len(data))) != 0:
            code = ctypes.get_errno()
            return f"{call} refused ({os.strerror(code)})"
    return None


def ipc_uts(namespaces: bool) -> tuple[LayerStatus, LayerStatus]:
    """Enter new IPC and UTS namespaces (``namespaces``: root, or a user namespace of ours)."""
    if not sys.platform.startswith("linux"):
        why = f"namespaces need Linux (this is {sys.platform})"
        return _off("ipc", why), _off("uts", why)
    if not namespaces:
        why = "needs root or a user namespace"
        return (
            _off("ipc", f"no IPC namespace ({why}): host SysV/POSIX IPC reachable"),
            _off("uts", f"no UTS namespace ({why}): the host's hostname is visible"),
        )
    try:
        unshare(CLONE_NEWIPC | CLONE_NEWUTS)
    except OSError:  # one may be refused alone: try each, to report each truthfully
        pass
    else:
        return _ipc_on(), _uts_on()
    layers = []
    for name, flag, on in (("ipc", CLONE_NEWIPC, _ipc_on), ("uts", CLONE_NEWUTS, _uts_on)):
        try:
            unshare(flag)
        except OSError as exc:
            layers.append(_off(name, f"unshare(CLONE_NEW{name.upper()}) refused ({reason(exc)})"))
        else:
            layers.append(on())
    return layers[0], layers[1]


def _ipc_on() -> LayerStatus:
    return LayerStatus(
        "ipc", True, "new IPC namespace: host SysV IPC and POSIX message queues out of reach"
    )


def _uts_on() -> LayerStatus:
    problem = _name_host()
    if problem is not None:
        return LayerStatus("uts", True, f"new UTS namespace; hostname not set: {problem}")
    return LayerStatus("uts", True, f"new UTS namespace, hostname {HOSTNAME!r}")
