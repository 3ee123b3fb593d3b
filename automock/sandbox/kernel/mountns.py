"""A read-only mount namespace prepared once per batch pool, joined by every child.

Building the sandbox's filesystem view (every mount re-mounted read-only,
``/root`` replaced by a tmpfs exposing only the interpreter) is the costliest
isolation layer, and it is the same for every candidate. So the pool forks
one *holder* process that enters :func:`~automock.sandbox.kernel.isolation.enter_isolation`'s
filesystem layer once and then sleeps; each candidate child joins the
holder's namespace with ``setns``, takes a private copy of it
(``unshare(CLONE_NEWNS)``, cheap: no re-mounts), mounts a fresh tmpfs on
``/tmp`` whose ``/tmp/automock`` is its workdir, and becomes init of its own
PID namespace with a private ``/proc``. The view a candidate gets is the one
``automock run`` gives a program: read-only everywhere, writable only in its
own (private, size-limited) workdir and ``/tmp``, which vanish with it.

When the holder cannot be built (not root, not Linux, mount namespaces
refused), :func:`start_holder` returns None and children enter every layer
themselves.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from automock.sandbox.kernel import isolation as iso
from automock.sandbox.kernel import syscalls
from automock.sandbox.kernel.fsview import PRIVATE_TMP, bind_read_only, open_under
from automock.sandbox.kernel.hostfacts import facts_layer, open_staged, time_layer
from automock.sandbox.kernel.pidns import pid_namespace
from automock.sandbox.kernel.syscalls import mount, unshare

__all__ = ["Holder", "PidNamespaceForker", "join_prepared", "start_holder"]

CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
PR_SET_PDEATHSIG = 1
_TMPFS_FLAGS = 2 | 4  # MS_NOSUID | MS_NODEV
_WORKDIR_SIZE = "size=64m"


@dataclass
class Holder:
    """The process keeping the prepared namespace alive, and a handle to it."""

    pid: int
    mnt_fd: int
    control_fd: int
    detail: str

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.control_fd)  # EOF: the holder exits
        with contextlib.suppress(OSError):
            os.close(self.mnt_fd)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _holder_main(pool_dir: str, ready_w: int, control_r: int, hidden: Sequence[str]) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    none = iso.Limits(None, None, None, None, None)
    layers = iso.enter_isolation(
        none,
        allow_network=True,
        workdir=pool_dir,
        pid_namespace=False,
        landlock=False,
        hidden=hidden,
    )
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the uid drop cleared it
    fs = next(layer for layer in layers if layer.name == "filesystem")
    os.write(ready_w, json.dumps({"active": fs.active, "detail": fs.detail}).encode())
    os.close(ready_w)
    with contextlib.suppress(OSError):
        os.read(control_r, 1)  # blocks until the pool closes its end (or dies)


def start_holder(pool_dir: str, hidden: Sequence[str] = ()) -> Holder | None:
    """Fork the holder and open its mount namespace; None when unavailable. ``hidden``:
    paths covered by empty ones in it (:func:`~automock.sandbox.kernel.fsview.hide`)."""
    if not hasattr(os, "setns") and not _libc_has("setns"):
        return None
    if os.geteuid() != 0 or not os.path.exists("/proc/self/ns/mnt"):
        return None
    ready_r, ready_w = os.pipe()
    control_r, control_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.dup2(ready_w, 3)
            os.dup2(control_r, 4)
            os.closerange(5, 65536)  # keep nothing of the parent's open
            _holder_main(pool_dir, 3, 4, hidden)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(ready_w)
    os.close(control_r)
    chunks = []
    while chunk := os.read(ready_r, 4096):
        chunks.append(chunk)
    os.close(ready_r)
    holder = Holder(pid, -1, control_w, "")
    try:
        status = json.loads(b"".join(chunks) or b"{}")
        if not status.get("active"):
            holder.close()
            return None
        holder.mnt_fd = os.open(f"/proc/{pid}/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
        holder.detail = str(status.get("detail", ""))
    except (OSError, ValueError):
        holder.close()
        return None
    return holder


def _libc_has(name: str) -> bool:
    try:
        return hasattr(ctypes.CDLL(None), name)
    except OSError:
        return False


class PidNamespaceForker:
    """Forks each child straight into a new PID namespace, as its init.

    ``unshare(CLONE_NEWPID)`` only changes where the calling *thread*'s next
    child goes, so the parent can do it right before ``fork()`` and undo it
    right after (``setns`` back to its own namespace): no intermediate process
    per candidate, and other threads of the parent are unaffected.
    """

    def __init__(self, fork_function: Callable[[], int] = os.fork) -> None:
        self._own = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
        self.fork_function = fork_function
        libc = syscalls.libc()  # bound once: each fork costs two calls, no lookups
        self._unshare_call, self._setns_call = libc.unshare, libc.setns

    @classmethod
    def create(cls, fork_function: Callable[[], int] = os.fork) -> PidNamespaceForker | None:
        """A forker, or None when PID namespaces are unavailable here.

        ``fork_function``: ``os.fork`` or the zygote's raw libc fork.
        """
        try:
            forker = cls(fork_function)
            unshare(CLONE_NEWPID)
            setns(forker._own, CLONE_NEWPID)
        except (OSError, AttributeError):
            return None
        return forker

    def fork(self) -> tuple[int, bool]:
        """``(pid, in_new_namespace)``; pid is 0 in the child, as for ``os.fork``."""
        if self._unshare_call(CLONE_NEWPID) != 0:
            return self.fork_function(), False
        try:
            pid = self.fork_function()
        except OSError:
            self._back()
            raise
        if pid != 0:
            self._back()
        return pid, True

    def _back(self) -> None:
        """Children forked next go to this process's own PID namespace again."""
        if self._setns_call(self._own, CLONE_NEWPID) != 0:
            code = ctypes.get_errno()
            raise OSError(code, f"setns: {os.strerror(code)}")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._own)


def setns(fd: int, nstype: int = CLONE_NEWNS) -> None:
    syscalls.setns(fd, nstype)


def _prepared_fs(hidden: Sequence[str]) -> Any:
    """The filesystem layer of a child in the prepared namespace (``hidden``: see below)."""
    return iso.LayerStatus(
        "filesystem",
        True,
        "pool's prepared read-only mount namespace (every mount read-only); private tmpfs on "
        f"/tmp and /dev/shm per candidate, workdir at {iso.VIRTUAL_ROOT}"
        + (f"; {len(hidden)} input or test-data path(s) hidden" if hidden else ""),
    )


def join_prepared(
    mnt_fd: int | None,
    limits: Any,
    *,
    allow_network: bool,
    pid_init: bool = False,
    uid: int = iso.SANDBOX_UID,
    readable: Sequence[str] = (),
    hidden: Sequence[str] = (),
    clock: Any = None,
) -> tuple[Any, ...]:
    """In a fresh child: join the prepared namespace, then enter the per-candidate layers.

    Returns the same :class:`~automock.sandbox.kernel.isolation.LayerStatus` tuple as
    ``enter_isolation``. ``hidden``: the paths the holder covered (named in the layer's
    detail; the covers come with the namespace). ``pid_init`` says the child was forked as init of a
    new PID namespace (:class:`PidNamespaceForker`); otherwise it becomes one
    here, continuing in a new process like ``enter_isolation`` does. ``clock``: the
    ``time`` layer of the namespace the zygote forked the child into, else it joins its
    own; the host facts come from the zygote's staged files, else the child's own
    (:mod:`automock.sandbox.kernel.hostfacts`).
    """
    if mnt_fd is not None:  # None: already in it (forked by the zygote)
        setns(mnt_fd)
    unshare(CLONE_NEWNS)  # private copy: this child's mounts are its own
    staged = open_staged()  # before the fresh /tmp hides them
    # a venv or project under /tmp stays importable: bound back read-only below
    under_tmp = open_under(iso._needed_paths(readable), PRIVATE_TMP)
    mount("tmpfs", "/tmp", "tmpfs", _TMPFS_FLAGS, f"mode=1777,{_WORKDIR_SIZE}")
    if os.path.isdir("/dev/shm"):
        mount("tmpfs", "/dev/shm", "tmpfs", _TMPFS_FLAGS, f"mode=1777,{_WORKDIR_SIZE}")
    bind_read_only(under_tmp)
    os.mkdir(iso.VIRTUAL_ROOT, 0o700)
    os.chown(iso.VIRTUAL_ROOT, uid, uid)
    if pid_init:
        mount("proc", "/proc", "proc", _TMPFS_FLAGS | 8)  # MS_NOEXEC
        pid_layer = iso.LayerStatus(
            "pid", True, "init of a new PID namespace: every descendant dies with it; private /proc"
        )
    else:
        pid_layer = pid_namespace(mount_proc=True)
    # as init with its private /proc, before the uid drop
    hidden_host = (clock or time_layer(True), facts_layer(True, staged))
    os.chdir(iso.VIRTUAL_ROOT)
    # with a private /proc of a new PID namespace, the only task to count is this (root) one
    layers = iso.enter_isolation(
        limits,
        allow_network=allow_network,
        uid=uid,
        pid_namespace=False,
        count_tasks=not pid_layer.active,
        readable=readable,
    )
    out: list[Any] = []
    for layer in layers:
        if layer.name == "filesystem":
            out.extend((_prepared_fs(hidden), pid_layer, *hidden_host))
        else:
            out.append(layer)
    return tuple(out)
