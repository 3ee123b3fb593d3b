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
pool (a Unix ``SOCK_SEQPACKET`` carrying the child's four pipe ends) it
forks a child straight into a new PID namespace
(:mod:`automock.sandbox.batch.zygote_child` says what the child does), and reports
the child's pid and, later, its exit status. Each child inherits the runtime
entered but unused (the zygote never draws a random number or reads the
clock), then re-seeds it with its sample's own seed (``entropy.reseed``); the
per-candidate layers (new network namespace, private mount namespace copy
with fresh ``/tmp``, PID namespace, rlimits, unprivileged lane uid) are
still entered by each child for itself.

Lifetime: the zygote dies with the pool's parent (``PR_SET_PDEATHSIG``) and
its children with it; when the pool closes the socket, it kills and reaps
its remaining children and exits.
"""

from __future__ import annotations

import array
import collections
import contextlib
import errno
import fcntl
import gc
import json
import os
import pickle
import random
import select
import signal
import socket
import struct
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from automock.sandbox.batch import zygote_child
from automock.sandbox.kernel.addresses import fixed_layout
from automock.sandbox.kernel.isolation import SANDBOX_UID, warm_isolation

__all__ = ["Zygote"]

_FDS = 4  # stdout, stderr, result, task (the child's ends)
_MSG = 1 << 16  # largest request (part of a preload list)
_SEEDED: list[Any] = []  # random's global state right after the zygote entered the runtime


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

    def fork(self, fds: Sequence[int], uid: int | None) -> None:
        """Ask for a child that gets ``fds`` (its pipe ends); :meth:`next_pid` tells its pid.

        Asynchronous: the pool goes on collecting results while the zygote forks.
        """
        socket.send_fds(self.sock, [b"F" + struct.pack("q", -1 if uid is None else uid)], fds)

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
        for at in range(0, len(wanted), 256):  # messages well under _MSG
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
_SOCK_FD, _BOOT_FD, _MNT_FD = 3, 4, 5
_BOOT = "from automock.sandbox.batch.zygote import main; main()"


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
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root  # this automock; the caller's sys.path follows on the boot pipe
    # sources above the targets first, so that no dup2 overwrites a later one's source
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (sock, boot, mnt_fd)]
    try:
        actions = [
            (os.POSIX_SPAWN_DUP2, fd, target)
            for fd, target in zip(high, (_SOCK_FD, _BOOT_FD, _MNT_FD), strict=True)
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


def main() -> None:
    """The zygote's entry point (see :func:`_spawn_interpreter`); never returns."""
    code = 1
    try:
        chunks = []
        while chunk := os.read(_BOOT_FD, 1 << 16):
            chunks.append(chunk)
        os.close(_BOOT_FD)
        parent, path, settings = pickle.loads(b"".join(chunks))
        sys.path[:] = path
        from automock.sandbox.batch.task import load_prctl

        sock = socket.socket(fileno=_SOCK_FD)
        _serve(sock, settings, _MNT_FD, load_prctl(), parent)  # exits
    finally:
        os._exit(code)


def _serve(
    sock: socket.socket,
    settings: Any,
    mnt_fd: int,
    prctl: Callable[..., int] | None,
    parent: int,
) -> None:
    code = 0
    try:
        if prctl is not None:
            prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os._exit(1)
        # keep the socket and the namespace above the fds the template occupies (0-4)
        sock = socket.socket(fileno=fcntl.fcntl(sock.detach(), fcntl.F_DUPFD_CLOEXEC, 8))
        mnt_fd = fcntl.fcntl(mnt_fd, fcntl.F_DUPFD_CLOEXEC, 8)
        keep = {sock.fileno(), mnt_fd}
        for fd in os.listdir("/proc/self/fd"):
            if int(fd) not in keep:
                with contextlib.suppress(OSError):
                    os.close(int(fd))
        _prepare(settings, mnt_fd, prctl)
        sock.send(b"R")
        _loop(sock)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


class _State:
    """The zygote's own: its template, fork function and what it has computed per lane uid."""

    template: Any = None  # zygote_child.Template
    fork: Callable[[], int] | None = None  # raw_fork(); None: os.fork and reseed random
    forker: Any = None  # mountns.PidNamespaceForker | None
    warmed: ClassVar[set[int | None]] = set()


def _prepare(settings: Any, mnt_fd: int, prctl: Callable[..., int] | None) -> None:
    """Import what children need, join the prepared namespace, fix the environment,
    enter the runtime for good."""
    from automock.plan.model import Plan
    from automock.runtime import deterministic
    from automock.sandbox.batch.warm import warm_parent
    from automock.sandbox.batch.zygote_child import Template
    from automock.sandbox.child import fresh
    from automock.sandbox.kernel.environment import candidate_environment
    from automock.sandbox.kernel.isolation import VIRTUAL_ROOT
    from automock.sandbox.kernel.mountns import PidNamespaceForker, setns
    from automock.sandbox.kernel.syscalls import raw_fork

    warm_parent(settings)
    setns(mnt_fd)
    os.close(mnt_fd)
    os.chdir("/")
    fresh.environment(candidate_environment(VIRTUAL_ROOT, settings.seed))
    plan = settings.plan if settings.plan is not None else Plan()
    deterministic(plan, seed=settings.seed).__enter__()  # left only by each child's exit
    _SEEDED.append(random.getstate())
    _State.template = Template.build(settings, prctl)
    _State.fork = raw_fork()
    _State.forker = PidNamespaceForker.create(_State.fork or os.fork)
    gc.collect()
    gc.freeze()


def _loop(sock: socket.socket) -> None:
    """Serve the pool: fork on request, report pids and exits; children die with the zygote."""
    poller = select.epoll()
    poller.register(sock.fileno(), select.EPOLLIN)
    children: dict[int, int] = {}  # pidfd -> pid
    ancillary = socket.CMSG_SPACE(_FDS * array.array("i").itemsize)
    me = os.getpid()
    try:
        while True:
            for fd, _ in poller.poll():
                pid = children.pop(fd, 0)
                if pid:  # a child's pidfd: it exited
                    _, status = os.waitpid(pid, 0)
                    poller.unregister(fd)
                    os.close(fd)
                    sock.send(b"X" + struct.pack("qq", pid, status))
                    continue
                msg, anc, _, _ = sock.recvmsg(_MSG, ancillary)
                fds = array.array("i")
                for level, kind, data in anc:
                    if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                        fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
                if not msg:
                    return
                if msg[:1] == b"L":
                    _preload(json.loads(msg[1:]))
                    sock.send(b"L")
                    continue
                if msg[:1] == b"C":
                    sock.send(b"C" + struct.pack("d", _cpu()))
                    continue
                (uid,) = struct.unpack("q", msg[1:9])
                try:
                    pid = _spawn(fds, None if uid < 0 else uid, me)
                except OSError as exc:
                    sock.send(b"E" + struct.pack("q", exc.errno or 0))
                    continue
                finally:
                    if os.getpid() != me:  # pragma: no cover - the child never gets here
                        os._exit(1)
                    for fd in fds:
                        os.close(fd)
                pidfd = os.pidfd_open(pid)
                children[pidfd] = pid
                poller.register(pidfd, select.EPOLLIN)
                sock.send(b"P" + struct.pack("q", pid))
    finally:
        for pid in children.values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _spawn(fds: Sequence[int], uid: int | None, zygote: int) -> int:
    if uid not in _State.warmed:  # once per lane uid: children inherit the result
        warm_isolation(uid, _State.template.settings.readable if _State.template else ())
        _State.warmed.add(uid)
    fork, forker = _State.fork, _State.forker
    pid, pid_init = forker.fork() if forker is not None else ((fork or os.fork)(), False)
    if pid == 0:
        if fork is None:
            # os.fork's own hook reseeded random's global generator from the OS: put the
            # seeded state back, so every child starts where the runtime left it
            random.setstate(_SEEDED[0])
        zygote_child.run(
            _State.template,
            fds,
            uid=SANDBOX_UID if uid is None else uid,
            pid_init=pid_init,
            zygote=zygote,
        )
    return pid


def _preload(names: list[str]) -> None:
    """Import what candidates import, under the runtime as they would; children inherit it."""
    from automock.sandbox.batch.warm import preload_imports
    from automock.sandbox.kernel.syscalls import raw_fork

    if preload_imports(names):
        _SEEDED[0] = random.getstate()  # as if each candidate had imported them first
        if _State.fork is not None and raw_fork() is None:  # an import started a thread
            _State.fork = None
            if _State.forker is not None:
                _State.forker.fork_function = os.fork
        gc.collect()
        gc.freeze()


def _cpu() -> float:
    import resource

    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
