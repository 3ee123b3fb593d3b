"""The zygote process itself: boot, prepare once, then fork a child per request.

:mod:`automock.sandbox.batch.zygote` starts it (a fresh interpreter running
:func:`main`) and is the pool's handle on it; this module is what runs inside: it
reads its settings from the boot pipe, imports and warms what children need, joins
the prepared mount namespace, enters the runtime for good and ``gc.freeze()``\\ s
(:func:`_prepare`), then serves fork requests (:func:`_loop`). Each child is
forked into a new PID namespace; what the child does is
:mod:`automock.sandbox.batch.zygote_child`.
"""

from __future__ import annotations

import array
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
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from automock.sandbox.batch import zygote_child
from automock.sandbox.batch.zygote import BOOT_FD, MNT_FD, SOCK_FD
from automock.sandbox.kernel.isolation import SANDBOX_UID, warm_isolation

__all__ = ["main"]

_FDS = 4  # stdout, stderr, result, task (the child's ends)
_MAX_FDS = (
    _FDS + 8
)  # a code pipe, the lane cgroup's cgroup.procs (v1: up to 3), its netns; spare room
_MSG = 1 << 16  # largest request (part of a preload list)
_SEEDED: list[Any] = []  # random's global state right after the zygote entered the runtime


def main() -> None:
    """The zygote's entry point (see :func:`_spawn_interpreter`); never returns."""
    code = 1
    try:
        chunks = []
        while chunk := os.read(BOOT_FD, 1 << 16):
            chunks.append(chunk)
        os.close(BOOT_FD)
        parent, path, settings = pickle.loads(b"".join(chunks))
        sys.path[:] = path
        from automock.sandbox.batch.task import load_prctl

        sock = socket.socket(fileno=SOCK_FD)
        _serve(sock, settings, MNT_FD, load_prctl(), parent)  # exits
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
    clock = _hide_host()
    os.chdir("/")
    fresh.environment(candidate_environment(VIRTUAL_ROOT, settings.seed))
    plan = settings.plan if settings.plan is not None else Plan()
    deterministic(plan, seed=settings.seed).__enter__()  # left only by each child's exit
    _SEEDED.append(random.getstate())
    _State.template = Template.build(settings, prctl, clock)
    _State.fork = raw_fork()
    _State.forker = PidNamespaceForker.create(_State.fork or os.fork)
    gc.collect()
    gc.freeze()


def _hide_host() -> Any:
    """In the prepared namespace: stage the fixed host facts every child binds, and make the
    time namespace every child is forked into (its clocks start when the pool starts);
    the ``time`` layer, or None when there is none (each child then makes its own)."""
    from automock.sandbox.kernel import hostfacts
    from automock.sandbox.kernel.layers import LayerStatus

    with contextlib.suppress(OSError):  # unstaged: each child stages them itself
        hostfacts.stage()
    clock = hostfacts.time_for_children()
    if not clock.active:
        return None
    detail = f"{clock.detail} (the pool's, made when it started: they run on since)"
    return LayerStatus("time", True, detail)


def _loop(sock: socket.socket) -> None:
    """Serve the pool: fork on request, report pids and exits; children die with the zygote."""
    poller = select.epoll()
    poller.register(sock.fileno(), select.EPOLLIN)
    children: dict[int, int] = {}  # pidfd -> pid
    ancillary = socket.CMSG_SPACE(_MAX_FDS * array.array("i").itemsize)
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
                msg, anc, flags, _ = sock.recvmsg(_MSG, ancillary)
                fds = array.array("i")
                for level, kind, data in anc:
                    if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                        fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
                if not msg:
                    return
                if flags & socket.MSG_CTRUNC:  # fds lost: never fork a child with others'
                    for fd in fds:
                        os.close(fd)
                    sock.send(b"E" + struct.pack("q", errno.EMSGSIZE))
                    continue
                if msg[:1] == b"L":
                    _preload(json.loads(msg[1:]))
                    sock.send(b"L")
                    continue
                if msg[:1] == b"C":
                    sock.send(b"C" + struct.pack("d", _cpu()))
                    continue
                (uid,) = struct.unpack("q", msg[1:9])
                try:
                    # P: a pair's spare that rehearses, Q: one that does not
                    pid = _spawn(fds, None if uid < 0 else uid, me, msg[9:11])
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


def _spawn(fds: Sequence[int], uid: int | None, zygote: int, kind: bytes = b"--") -> int:
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
            pair=kind[:1] in (b"P", b"Q"),
            rehearse=kind[:1] == b"P",
            network=kind[1:2] == b"N",
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
