"""The batch pool's fork server: one root process that forks every candidate child.

Forking each child from the pool's parent means every child pays again for
what is the same in all of them: entering the deterministic runtime
(``deterministic(plan, seed)``), fixing the environment, joining the prepared
mount namespace; and every child holds a copy of the caller's memory. The
*zygote* is a fresh interpreter started once per pool (``python -P -c``,
the sandbox's fixed environment and the run's ``PYTHONHASHSEED``, the
caller's ``sys.path`` and the settings sent on a pipe). It imports what
children need, joins the holder's read-only mount namespace
(:mod:`automock.sandbox.kernel.mountns`), enters the runtime and never leaves it,
then ``gc.freeze()``\\ s. It runs no candidate code: on each request from the
pool (a Unix ``SOCK_SEQPACKET`` carrying the child's four pipe ends and its
lane cgroup's ``cgroup.procs`` files) it forks a child straight into a new PID
namespace (:mod:`automock.sandbox.batch.zygote_child` says what the child does), and reports
the child's pid and, later, its exit status. Each child inherits the runtime
entered but unused (the zygote never draws a random number or reads the
clock), then re-seeds it with its sample's own seed (``entropy.reseed``); the
per-candidate layers (cgroup, network namespace: the lane's empty one or a new one
(:mod:`automock.sandbox.kernel.netns`), private mount namespace copy
with fresh ``/tmp``, IPC and UTS namespaces, rlimits, unprivileged lane uid, Landlock, seccomp) are
still entered by each child for itself.

This module is the pool's side (:class:`Zygote`, a handle on the process);
:mod:`automock.sandbox.batch.zygote_server` is what runs in the zygote.

Lifetime: the zygote dies with the pool's parent (``PR_SET_PDEATHSIG``) and
its children with it; when the pool closes the socket, it kills and reaps
its remaining children and exits.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import fcntl
import json
import os
import pickle
import signal
import socket
import struct
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from automock.sandbox.kernel.addresses import fixed_layout

__all__ = ["BOOT_FD", "MNT_FD", "SOCK_FD", "Zygote"]


class Zygote:
    """The parent's handle on the fork server; None from :meth:`start` when unavailable."""

    def __init__(self, pid: int, sock: socket.socket) -> None:
        self.pid = pid
        self.sock = sock
        self.exits: dict[int, int] = {}  # child pid -> wait status, not yet collected
        self._preloaded: set[str] = set()
        self.forked: collections.deque[tuple[bytes, int]] = collections.deque()  # P/E replies

    @classmethod
    def start(cls, settings: Any, mnt_fd: int) -> Zygote | None:
        """Start the zygote as a fresh interpreter; None when it cannot get ready."""
        if not hasattr(os, "pidfd_open") or not hasattr(socket, "send_fds"):
            return None
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        boot_r, boot_w = os.pipe()
        try:
            pid = _spawn_interpreter(settings.seed, theirs.fileno(), boot_r, mnt_fd)
        except OSError:
            pid = -1
        finally:
            theirs.close()
            os.close(boot_r)
        if pid < 0:
            os.close(boot_w)
            ours.close()
            return None
        zygote = cls(pid, ours)
        try:
            _write_all(boot_w, pickle.dumps((os.getpid(), list(sys.path), settings)))
        except (OSError, pickle.PicklingError):
            pass  # it will not get ready
        finally:
            os.close(boot_w)
        try:
            tag, _ = zygote._next(block=True)
        except OSError:
            tag = b""
        if tag != b"R":  # it could not get ready: children are forked by the parent
            zygote.close()
            return None
        return zygote

    def fileno(self) -> int:
        return self.sock.fileno()

    def fork(
        self,
        fds: Sequence[int],
        uid: int | None,
        *,
        pair: bool = False,
        rehearse: bool = True,
        network: int | None = None,
    ) -> None:
        """Ask for a child that gets ``fds`` (its pipe ends); :meth:`next_pid` tells its pid.

        Asynchronous: the pool goes on collecting results while the zygote forks.
        ``pair``: the child should fork a pair's candidate process ahead of its candidate;
        ``rehearse``: and both rehearse a pair while they wait (see the child's ``run``);
        ``network``: its lane's empty network namespace, to join (sent last).
        """
        kind = (b"P" if rehearse else b"Q") if pair else b"-"
        msg = b"F" + struct.pack("q", -1 if uid is None else uid) + kind
        msg += b"N" if network is not None else b"-"
        socket.send_fds(self.sock, [msg], [*fds, *([network] if network is not None else [])])

    def next_pid(self) -> int:
        """The pid of the oldest child asked for and not yet told (waits for it)."""
        while not self.forked:
            if not self._next(block=True)[0]:
                raise OSError(errno.ECHILD, "the zygote is gone")
        tag, value = self.forked.popleft()
        if tag == b"E":
            raise OSError(value, os.strerror(value))
        return value

    def preload(self, names: Iterable[str]) -> None:
        """Have the zygote import the installed modules among ``names`` (see warm)."""
        wanted = sorted(set(names) - self._preloaded)
        if not wanted:
            return
        self._preloaded.update(wanted)
        for at in range(0, len(wanted), 256):  # messages well under the server's _MSG (64 KiB)
            self.sock.send(b"L" + json.dumps(wanted[at : at + 256]).encode())
            while self._next(block=True)[0] not in (b"L", b""):
                pass

    def poll(self) -> None:
        """Collect the exit statuses that have arrived (non-blocking): call it when the
        socket is readable; :meth:`wait` without ``block`` only looks at what was collected."""
        with contextlib.suppress(BlockingIOError, InterruptedError):
            while self._next(block=False)[0]:
                pass

    def wait(self, pid: int, *, block: bool) -> int | None:
        """The wait status of child ``pid`` once it exited and was reported (None before)."""
        while block and pid not in self.exits:
            if not self._next(block=True)[0]:
                return 0  # the zygote is gone, and its children with it
        return self.exits.pop(pid, None)

    def wait_any(self, pids: set[int]) -> None:
        """Block until the exit of one of ``pids`` was reported (or the zygote is gone)."""
        while not pids & self.exits.keys():
            if not self._next(block=True)[0]:
                return

    def cpu_seconds(self) -> float:
        """CPU time of the zygote and the children it has reaped."""
        self.sock.send(b"C")
        while True:
            tag, body = self._next(block=True)
            if tag == b"C":
                return float(struct.unpack("d", body)[0])
            if not tag:
                return 0.0

    def _next(self, *, block: bool) -> tuple[bytes, bytes]:
        msg = self.sock.recv(64, 0 if block else socket.MSG_DONTWAIT)
        tag, body = msg[:1], msg[1:]
        if tag == b"X":
            pid, status = struct.unpack("qq", body)
            self.exits[pid] = status
        elif tag in (b"P", b"E"):
            self.forked.append((tag, int(struct.unpack("q", body)[0])))
        return tag, body

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()  # EOF: it kills and reaps its children, then exits
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


# fds of a starting zygote (its stdio stays the parent's until _serve replaces it)
SOCK_FD, BOOT_FD, MNT_FD = 3, 4, 5
_BOOT = "from automock.sandbox.batch.zygote_server import main; main()"


def _spawn_interpreter(seed: int, sock: int, boot: int, mnt_fd: int) -> int:
    """``python -P -c _BOOT`` with the sandbox's fixed environment and hash seed.

    A fresh interpreter, not a fork of the caller: the children are forked
    from the zygote and hold a copy of its memory, which must hold nothing of
    the caller's (its environment, its data), and should be small (fork and
    exit cost grows with it).
    """
    from pathlib import Path

    from automock.sandbox.kernel.environment import fixed_environment
    from automock.sandbox.kernel.isolation import VIRTUAL_ROOT

    env = fixed_environment(Path(VIRTUAL_ROOT), seed)  # PYTHONHASHSEED: as `automock run`
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    root = os.path.dirname(package)  # the directory holding this automock package
    env["PYTHONPATH"] = root  # this automock; the caller's sys.path follows on the boot pipe
    # sources above the targets first, so that no dup2 overwrites a later one's source
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (sock, boot, mnt_fd)]
    try:
        actions = [
            (os.POSIX_SPAWN_DUP2, fd, target)
            for fd, target in zip(high, (SOCK_FD, BOOT_FD, MNT_FD), strict=True)
        ]
        argv = [sys.executable, "-P", "-c", _BOOT]
        default = signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}  # the caller's: none
        with fixed_layout():  # ASLR off: one address layout per pool
            return os.posix_spawn(
                sys.executable, argv, env, file_actions=actions, setsigmask=(), setsigdef=default
            )
    finally:
        for fd in high:
            os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
