"""Run uids: concurrent holders never share one, a released uid is taken again, and the range
stays clear of the batch lanes' uids. The lease is a lock the kernel drops with its holder."""

from __future__ import annotations

import fcntl
import os
import stat
import subprocess
import sys

import pytest

from automock.sandbox.batch.lanes import lane_uid
from automock.sandbox.kernel.uids import LOCK_DIRS, RUN_UID_BASE, RUN_UIDS, run_uid

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.geteuid() != 0, reason="uids are leased as root"
)

HOLD = """\
import sys, time
from automock.sandbox.kernel.uids import run_uid
with run_uid() as uid:
    print(uid, flush=True)
    time.sleep(60)
"""


def test_concurrent_holders_get_distinct_uids_and_a_dead_holders_uid_comes_back() -> None:
    other = subprocess.Popen([sys.executable, "-c", HOLD], stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None
        held = int(other.stdout.readline())
        with run_uid() as mine, run_uid() as third:
            assert len({held, mine, third}) == 3
            assert all(RUN_UID_BASE <= u < RUN_UID_BASE + RUN_UIDS for u in (held, mine, third))
    finally:
        other.kill()  # killed: no cleanup of its own; the kernel drops its lock
        other.wait()
    directory = next(p for p in LOCK_DIRS if os.path.isdir(p))
    fd = os.open(os.path.join(directory, str(held)), os.O_RDWR)
    try:  # the killed holder's lock went with it: its uid is free for the next run
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(fd)


def test_the_range_is_clear_of_lane_uids_and_the_lock_dir_is_roots() -> None:
    lowest_lane = min(lane_uid(0, owner) for owner in (0, 1, os.getpid()))
    assert lowest_lane >= RUN_UID_BASE + RUN_UIDS
    assert len({len(str(u)) for u in (RUN_UID_BASE, RUN_UID_BASE + RUN_UIDS - 1)}) == 1
    with run_uid():
        directory = next(p for p in LOCK_DIRS if os.path.isdir(p))
        info = os.lstat(directory)
        assert stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and not info.st_mode & 0o022
