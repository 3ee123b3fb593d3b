"""Ending one sandbox child: whether it exited, killing its group and PID namespace, reaping.

The parent of a run (:mod:`automock.sandbox.run.watch`) uses these after the program ended
or at the timeout: the child is in its own session and is init of its own PID namespace, so
what is left of it is found by process group and by namespace, from ``/proc``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

from automock.sandbox.run.spawn import ChildProcess

__all__ = ["exited", "kill_group", "members", "pid_namespace_of", "reap"]


def pid_namespace_of(pid: int) -> str | None:
    try:
        link = os.readlink(f"/proc/{pid}/ns/pid_for_children")
    except OSError:
        return None
    return None if link == os.readlink("/proc/self/ns/pid") else link


def members(pgid: int, namespace: str | None) -> list[int]:
    """Processes still in the child's process group or PID namespace."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if namespace is not None and os.readlink(f"/proc/{entry}/ns/pid") == namespace:
                found.append(int(entry))
                continue
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            if int(fields[2]) == pgid:
                found.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return found


def kill_group(proc: ChildProcess, namespace: str | None) -> None:
    """SIGKILL the group (and PID namespace); wait briefly until none of it is left."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    if not os.path.isdir("/proc/self/ns"):
        return
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        left = [pid for pid in members(proc.pid, namespace) if pid != proc.pid]
        if not left:
            return
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        proc.poll()
        time.sleep(0.01)


def exited(proc: ChildProcess) -> bool:
    """Has the child exited? (without reaping it, so :func:`_reap` still gets its rusage)"""
    if proc.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def reap(proc: ChildProcess) -> tuple[int, float]:
    """Wait for the child; return its exit code and the CPU seconds of it and its reaped tree."""
    if proc.returncode is None:
        with contextlib.suppress(ChildProcessError):
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            return proc.returncode, usage.ru_utime + usage.ru_stime
    return proc.wait(), 0.0
