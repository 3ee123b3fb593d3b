"""Thin ctypes wrappers over the Linux calls the sandbox needs (unshare, mount, prctl, fork).

Private to :mod:`automock.sandbox`; :mod:`automock.sandbox.kernel.isolation`
re-exports the names the batch pool uses (``unshare``, ``mount``).
"""

from __future__ import annotations

import errno
import functools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ctypes

CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUTS = 0x04000000
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
PR_SET_DUMPABLE = 4
CLONE_NEWUSER = 0x10000000
CLONE_NEWTIME = 0x00000080
SKIP_MOUNTS = ("/proc", "/sys", "/dev", "/dev/pts")
# per-mount flags a remount must repeat (a user namespace may not drop locked ones)
KEPT_FLAGS = (
    ("nosuid", MS_NOSUID),
    ("nodev", MS_NODEV),
    ("noexec", MS_NOEXEC),
    ("noatime", 1024),
    ("nodiratime", 2048),
    ("relatime", 1 << 21),
    ("strictatime", 1 << 24),
)


@functools.cache
def libc() -> ctypes.CDLL:
    import ctypes  # only the sandbox child calls into libc: the CLI parent never pays for ctypes

    return ctypes.CDLL(None, use_errno=True)


def unshare(flags: int) -> None:
    unshare = getattr(os, "unshare", None)
    if unshare is not None:  # Python 3.12+
        unshare(flags)
        return
    import ctypes

    if libc().unshare(ctypes.c_int(flags)) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


def setns(fd: int, nstype: int) -> None:
    """Join the namespace open at ``fd`` (a time namespace: also the caller's own clocks)."""
    setns = getattr(os, "setns", None)
    if setns is not None:  # Python 3.12+
        setns(fd, nstype)
        return
    import ctypes

    if libc().setns(fd, nstype) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"setns: {os.strerror(code)}")


def umount(target: str, flags: int = 0) -> None:
    """``umount2(target, flags)`` (``MNT_DETACH`` = 2: lazily, once nothing uses it)."""
    import ctypes

    if libc().umount2(target.encode(), flags) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"umount2: {os.strerror(code)}")


def mount(
    source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None
) -> None:
    import ctypes

    def enc(value: str | None) -> bytes | None:
        return None if value is None else os.fsencode(value)

    result = libc().mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data))
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"mount {target}: {os.strerror(code)}")


def unmount(target: str) -> None:
    """Detach the mount at ``target`` (``umount2(MNT_DETACH)``: gone once nothing uses it)."""
    import ctypes

    if libc().umount2(os.fsencode(target), ctypes.c_int(2)) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"umount {target}: {os.strerror(code)}")


def prctl(option: int, arg: int) -> None:
    import ctypes

    libc().prctl(option, ctypes.c_ulong(arg), 0, 0, 0)


def die_with_parent(parent: int) -> None:
    """Arm ``PR_SET_PDEATHSIG(SIGKILL)``; exit at once if ``parent`` died before it took effect."""
    import signal

    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def reason(exc: OSError) -> str:
    return f"{errno.errorcode.get(exc.errno or 0, 'error')}: {exc.strerror or exc}"


def raw_fork() -> Callable[[], int] | None:
    """libc's ``fork()`` called directly, skipping Python's at-fork hooks; None if unsafe here.

    Only for a process with a single thread (native ones included) and no
    import in progress, as the pool's zygote is between requests, or a pair's test process before it forks the candidate's: then the
    interpreter's state needs no repair in the child. Python's own hooks would reseed ``random`` (which
    the child must not: it starts from the zygote's seeded state) and redo
    ``threading``'s main-thread bookkeeping, which is already right.
    """
    import ctypes

    try:  # every thread of the process, native ones too (threading only knows its own)
        threads = len(os.listdir("/proc/self/task"))
    except OSError:
        import threading

        threads = threading.active_count()
    if threads != 1:
        return None
    try:
        fork = ctypes.PyDLL(None, use_errno=True).fork  # PyDLL: the GIL stays held
    except (OSError, AttributeError):
        return None
    fork.restype = ctypes.c_int
    fork.argtypes = ()

    def call() -> int:
        pid = int(fork())
        if pid < 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err))
        return pid

    return call
