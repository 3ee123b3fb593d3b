"""The programs a run started, seen by the parent through the kernel's process events.

The kernel's process-events connector (netlink ``NETLINK_CONNECTOR``, group
``CN_IDX_PROC``; a root listener in the initial namespaces may subscribe) sends an event
for each fork, exec and exit on the machine, in the order they happened, naming the task
(``pid``) and its process (``tgid``) as the host sees them. The parent subscribes when the
sandbox says it started, while the program's process waits for the parent's go (it has
not run a line yet), so nothing it does is missed; a thread reads the events while the
run lasts, and after the run's PID namespace ended the parent reads the rest (the kernel
queues an event when the fork or exec happens, so every one of the run's is queued by then).

What is counted: the processes that run the program's code with the runtime are its
process and every process one of them forked that has not ``exec``'d since (``os.fork``,
multiprocessing's ``fork`` workers: the runtime's counts are shared with them). For those:

- **process forks**: the processes they forked (a fork event whose child is a process of its
  own, ``pid == tgid``; a new thread is not one);
- **program starts**: each ``exec`` one of them made (a forked child's ``exec``, as
  ``subprocess``, ``os.posix_spawn`` and ``_posixsubprocess.fork_exec`` do, or an
  ``os.execv`` of the process itself). After its ``exec`` a process runs another program:
  what that program runs in turn (a shell's command, ``make``'s compilers) is its business,
  as its other accesses are, and is not counted.

When the events could not be read (no connector, not root, another namespace) or the
kernel dropped some (its queue was full), nothing is counted and the note says why: never
a guess.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import socket
import struct
import threading
from dataclasses import dataclass

__all__ = ["StartWatch", "Starts"]

_NETLINK_CONNECTOR = 11
_CN_IDX_PROC = _CN_VAL_PROC = 1
_LISTEN, _IGNORE = 1, 2  # PROC_CN_MCAST_LISTEN, PROC_CN_MCAST_IGNORE
_FORK, _EXEC, _EXIT = 1, 2, 0x80000000
_NLMSG_DONE = 3
_SO_RCVBUFFORCE = 33  # not in every Python's socket module
_HEADER = struct.Struct("=IHHII")  # struct nlmsghdr
_CN_MSG = struct.Struct("=IIIIHH")  # struct cn_msg (the payload follows)
_EVENT = struct.Struct("=IIQIIII")  # struct proc_event: what, cpu, time, then the union
_QUEUE = 8 << 20  # the socket's receive queue: a busy machine's events while the thread waits


@dataclass(frozen=True, slots=True)
class Starts:
    """What the kernel's events showed (``None``: not observed, ``note`` says why)."""

    execs: int | None = None
    forks: int | None = None
    note: str = "not observed: the sandbox was not seen starting"


def _request(operation: int) -> bytes:
    body = _CN_MSG.pack(_CN_IDX_PROC, _CN_VAL_PROC, 0, 0, 4, 0) + struct.pack("=I", operation)
    return _HEADER.pack(_HEADER.size + len(body), _NLMSG_DONE, 0, 0, 0) + body


class StartWatch:
    """The kernel's process events about one program process (``program``, a host pid),
    from :meth:`open` (before the program runs) to :meth:`finish` (after its end)."""

    def __init__(self, program: int, sock: socket.socket | None, note: str) -> None:
        self.program, self._sock, self.note = program, sock, note
        self._bearing = {program}  # the program's process and its forks that have not exec'd
        self.forks = self.execs = 0
        self.lost = ""
        self._wake_r, self._wake_w = os.pipe() if sock is not None else (-1, -1)
        self._thread: threading.Thread | None = None
        if sock is not None:
            self._thread = threading.Thread(target=self._read, name="automock-proc-events")
            self._thread.daemon = True
            self._thread.start()

    @classmethod
    def open(cls, program: int | None) -> StartWatch:
        """Subscribe to the process events (call before ``program`` runs any code)."""
        if program is None:
            return cls(0, None, "not observed: the program's process could not be found")
        try:
            sock = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, _NETLINK_CONNECTOR)
        except (OSError, AttributeError) as exc:
            return cls(program, None, f"not observed: no process-events connector ({exc})")
        try:
            with contextlib.suppress(OSError):  # root may grow its queue past rmem_max
                sock.setsockopt(socket.SOL_SOCKET, _SO_RCVBUFFORCE, _QUEUE)
            sock.bind((0, _CN_IDX_PROC))
            sock.send(_request(_LISTEN))
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            why = exc.strerror or type(exc).__name__
            return cls(program, None, f"not observed: the process-events connector refused ({why})")
        return cls(program, sock, "")

    def _read(self) -> None:
        """The thread: handle events as they come, until woken to read the last ones."""
        assert self._sock is not None
        try:
            while True:
                ready, _, _ = select.select([self._sock.fileno(), self._wake_r], [], [])
                self._drain()
                if self._wake_r in ready:
                    return
        except Exception as exc:  # counts from part of the events would be a guess
            self.lost = f"reading them failed ({type(exc).__name__})"

    def _drain(self) -> None:
        assert self._sock is not None
        while True:
            try:
                data = self._sock.recv(1 << 16)
            except BlockingIOError:
                return
            except OSError as exc:
                if exc.errno != errno.ENOBUFS:
                    self.lost = f"reading them failed ({exc.strerror})"
                    return
                self.lost = "the kernel dropped events (its queue was full)"
                continue
            self._messages(data)

    def _messages(self, data: bytes) -> None:
        offset = 0
        while offset + _HEADER.size <= len(data):
            length = _HEADER.unpack_from(data, offset)[0]
            start = offset + _HEADER.size + _CN_MSG.size
            if length < _HEADER.size or start + _EVENT.size > offset + length:
                break
            what, _cpu, _time, *ids = _EVENT.unpack_from(data, start)
            self._event(what, ids)
            offset += (length + 3) & ~3

    def _event(self, what: int, ids: list[int]) -> None:
        if what == _FORK:
            _parent_pid, parent, child_pid, child = ids
            if parent in self._bearing and child_pid == child:  # a process, not a thread
                self.forks += 1
                self._bearing.add(child)  # a fork keeps the runtime (and its shared counts)
        elif what == _EXEC:
            if ids[1] in self._bearing:
                self.execs += 1
                self._bearing.discard(ids[1])  # another program now: its own business
        elif what == _EXIT and ids[0] == ids[1]:
            self._bearing.discard(ids[1])  # its pid may be reused by anyone now

    def finish(self) -> Starts:
        """The counts, once the run ended (call after its PID namespace is gone); closes."""
        if self._sock is None:
            return Starts(None, None, self.note)
        self.close()
        if self.lost:
            return Starts(None, None, f"not observed: {self.lost}")
        return Starts(self.execs, self.forks, "")

    def close(self) -> None:
        """Read the queued events, unsubscribe and close (idempotent)."""
        sock, thread = self._sock, self._thread
        if sock is None:
            return
        self._thread = None
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
        if thread is not None:
            thread.join()  # it reads what is queued, then ends
        self._sock = None
        with contextlib.suppress(OSError):
            sock.send(_request(_IGNORE))
        sock.close()
        os.close(self._wake_r)
        os.close(self._wake_w)
