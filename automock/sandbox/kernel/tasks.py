"""How many tasks (threads) a uid runs: what ``RLIMIT_NPROC`` counts for it.

The sandbox's process limit is set on top of that count (:mod:`automock.sandbox.kernel.isolation`).
"""

from __future__ import annotations

import os

__all__ = ["tasks_of"]


def tasks_of(uid: int) -> int:
    """Threads currently owned (real uid) by ``uid``: RLIMIT_NPROC counts them all."""
    count = 0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return 0
    for entry in entries:
        if not entry.isdigit():
            continue
        try:  # os.open/os.read: a third cheaper than open() per process (a file object each)
            fd = os.open(f"/proc/{entry}/status", os.O_RDONLY | os.O_CLOEXEC)
            try:
                data = os.read(fd, 4096)  # Uid and Threads come in the first ~1 KiB
            finally:
                os.close(fd)
            at = data.index(b"\nUid:") + 5
            if int(data[at:].split(None, 1)[0]) == uid:
                at = data.index(b"\nThreads:") + 9
                count += int(data[at:].split(None, 1)[0])
        except (OSError, ValueError):
            continue
    return count
