"""Helpers of the batch pool: lane uids, killing a child's group, stale pool directories."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

__all__ = ["MAX_LANES", "POOL_PREFIX", "kill_group", "lane_uid", "sweep_stale_dirs"]

POOL_PREFIX = "automock-batch-"
MAX_LANES = 256  # lanes of one pool with distinct uids (see lane_uid)


def lane_uid(lane: int, owner: int | None = None) -> int:
    """The unprivileged uid of one worker lane of the pool owned by process ``owner``.

    Concurrent candidates get different uids, so they cannot signal or trace
    each other and one's fork bomb does not use up the other's process limit;
    the pid in the uid keeps two pools on one machine apart too.
    """
    pid = os.getpid() if owner is None else owner
    return 0x10000000 + ((pid & 0x3FFFFF) << 8) + (lane & MAX_LANES - 1)


def sweep_stale_dirs(base: str | None = None) -> list[Path]:
    """Remove pool directories whose owner process no longer exists."""
    from automock.sandbox.kernel.workdir import sweep_stale

    return sweep_stale(POOL_PREFIX, base)


def kill_group(pid: int) -> None:
    if pid <= 0:  # never kill(-1) or our own group: a child whose pid is not known yet
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
