"""A uid of its own for every ``automock run``: no two runs on the machine share one.

``RLIMIT_NPROC`` counts every task of a uid, machine-wide. When all runs dropped to the
same uid, a run holding its 64 processes made the fork of another run beside it fail,
and each run's process limit (set on top of what its uid already ran) moved with the
others' load. So the parent leases a uid for the run's life (every repeat of one
``Runner.run``) from a range of its own:

* the range starts at :data:`RUN_UID_BASE`, below the batch lanes' uids
  (:func:`automock.sandbox.batch.lanes.lane_uid` starts at ``0x10000000``), and every
  uid in it has the same number of digits (a spec of the same size, run after run);
* a uid is taken by an exclusive ``flock`` on its lock file in a root-owned directory
  (:data:`LOCK_DIRS`), held by the parent until the run ended: the kernel drops the lock
  when the holder exits, however it ends, so a killed run leaks no uid;
* the lowest free uid is taken, so runs one after the other get the same one.

Only root drops to another uid; elsewhere there is nothing to lease (None).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import sys
from collections.abc import Iterator

from automock.errors import SandboxError

__all__ = ["LOCK_DIRS", "RUN_UIDS", "RUN_UID_BASE", "run_uid"]

RUN_UID_BASE = 0x0F000000  # 251658240: nine digits for every uid of the range
RUN_UIDS = 4096  # concurrent runs on one machine
LOCK_DIRS = ("/run/automock-uids", "/tmp/.automock-uids")  # the first whose parent exists


def _lock_dir() -> str:
    """The root-owned directory of the uid locks (made if missing), checked as found."""
    path = next(p for p in LOCK_DIRS if os.path.isdir(os.path.dirname(p)))
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0 or info.st_mode & 0o022:
        raise SandboxError(
            f"{path} must be a directory owned by root and writable by no one else; remove it"
        )
    return path


def _take(directory: str, uid: int) -> int | None:
    """An fd holding the lock of ``uid``, or None if another run holds it."""
    flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
    fd = os.open(os.path.join(directory, str(uid)), flags, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


@contextlib.contextmanager
def run_uid() -> Iterator[int | None]:
    """A uid no other run holds, for the block's duration (None when not root on Linux)."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        yield None
        return
    directory = _lock_dir()
    for uid in range(RUN_UID_BASE, RUN_UID_BASE + RUN_UIDS):
        fd = _take(directory, uid)
        if fd is None:
            continue
        try:
            yield uid
        finally:
            os.close(fd)
        return
    raise SandboxError(f"all {RUN_UIDS} run uids are in use by concurrent runs; retry later")
