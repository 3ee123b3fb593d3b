"""The warm ``automock run`` server: a restarted CLI with one handler process per command.

``automock run`` spends most of its time before the program starts on work that is
the same every time: a second interpreter start (the restart that fixes the
string-hash seed), imports, building the parser, warming the runtime. The server
is a CLI process restarted for one hash seed (:mod:`automock.commands.restart`),
with everything imported and warmed once; it listens on a socket in the user's
private directory (:mod:`automock.commands.channel`).

Each connection goes to a handler, a process forked from the server and used once; the
server never reads a request itself, so nothing of one command is left in it for the
next. While no handler is busy, the server forks the next one ahead (:class:`_Spare`):
it prepares the next run's sandbox child (:mod:`automock.sandbox.run.spare`) and waits
for the server to pass it a connection over a socket pair; a connection that comes
while none waits gets a handler forked for it. The handler
checks the peer's uid and that the client's interpreter, automock checkout,
start-up environment variables and locale are the server's (else it refuses and
the client runs the command itself), takes over the client's stdin, stdout,
stderr, directory, umask and scrubbed environment, and runs the command line with
:func:`automock.commands.dispatch.dispatch`, as the restarted CLI would. A run's
sandbox child is the spare or one the handler starts exactly as the CLI does (a
fresh interpreter; with ``--no-stable-addresses`` forked, with the same hash seed,
scrubbed environment, one thread), so every isolation layer and every observation
of it is the same.

Lifetime: the server ends after ``idle`` seconds without a connection, when its
socket is removed or replaced, on ``automock server stop`` (SIGTERM), and when
any of automock's source files, or a directory on ``sys.path`` (a package
installed or removed), changed since it started: it refuses that connection (the
client runs the command itself) and exits, so stale code never runs (the waiting
handler, and its spare, see end of file on the socket pair and end unused).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import signal
import socket
import sys
import time
from typing import Any, NoReturn

from automock.commands import stale
from automock.commands.channel import HANDLER_ENV, Connection, identity, leave_nothing
from automock.sandbox.run.watch import defer_removal, run_deferred

__all__ = ["serve"]

_PARSERS: dict[str, argparse.ArgumentParser] = {}  # built once, before the first connection
_IDENTITY = "AUTOMOCK_SERVER_IDENTITY"  # the starting client's identity (automock server start)


def _warm() -> None:
    """Import and warm what every run needs, once, before the first connection: what is
    compiled at first use (regular expressions) would be compiled again in every handler."""
    import automock.commands.run
    import automock.pipeline.run
    import automock.sandbox.run.forked as forked

    forked.warm()
    import automock.analysis.cache
    import automock.commands._cassette
    import automock.commands._record
    import automock.drafting
    from automock.commands.dispatch import build_parser

    _PARSERS["run"] = build_parser("run")
    _PARSERS["run"].parse_args(["run", "warm.py"])  # argparse compiles its patterns once
    import fnmatch

    from automock.sandbox.kernel.workdir import IGNORED

    for pattern in IGNORED:  # the workdir copy's ignore list, compiled once
        fnmatch.filter((), pattern)
    del automock


def _listen(path: str) -> socket.socket:
    """A listening socket at ``path`` (a dead server's leftover socket is replaced)."""
    with contextlib.suppress(FileNotFoundError):
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(path)
            raise SystemExit(f"automock: a server already listens on {path}")
        except ConnectionRefusedError:
            os.unlink(path)
        finally:
            probe.close()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)
    listener.listen(64)
    return listener


def _reap(handlers: set[int]) -> None:
    for pid in list(handlers):
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(pid, os.WNOHANG)[0] == 0:
                continue
        handlers.discard(pid)


def _still_ours(path: str, inode: int) -> bool:
    try:
        return os.stat(path).st_ino == inode
    except OSError:
        return False


class _Spare:
    """The server's waiting handler: a forked process that prepares the next run's sandbox
    child (:mod:`automock.sandbox.run.spare`) while idle, then waits for a connection, which
    the server passes to it over a socket pair. Started when no handler is busy (so it takes
    no CPU from a run), replaced when it is used or dies, ended with the server."""

    def __init__(self, listener: socket.socket, expected: dict[str, Any], seed: int) -> None:
        self.listener, self.expected, self.seed = listener, expected, seed
        self.pid: int | None = None
        self.channel: socket.socket | None = None
        self.busy: dict[int, int] = {}  # handler pid -> pidfd (readable when it ends)

    def start(self, handlers: set[int]) -> None:
        """Fork the waiting handler, unless one waits already or a handler is busy."""
        if self.pid is not None or self.busy:
            return
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the handler (tested through the CLI)
            for fd in (self.listener.fileno(), mine.fileno(), *self.fds()):
                os.close(fd)
            _wait_as_spare(theirs, self.expected, self.seed)
        theirs.close()
        self.pid, self.channel = pid, mine
        handlers.add(pid)

    def hand(self, sock: socket.socket, served: int) -> bool:
        """Pass the connection ``sock`` to the waiting handler; False if none took it."""
        pid, channel, self.pid, self.channel = self.pid, self.channel, None, None
        if pid is None or channel is None:
            return False
        try:
            Connection(channel).send({"served": served}, fds=(sock.fileno(),))
        except OSError:
            return False  # it died: the connection gets a handler forked for it
        finally:
            channel.close()
        self.watch(pid)
        return True

    def watch(self, pid: int) -> None:
        """Count handler ``pid`` as busy until it ends (no spare is started meanwhile)."""
        with contextlib.suppress(AttributeError, OSError):
            self.busy[pid] = os.pidfd_open(pid)
            return
        self.busy[pid] = -1  # no pidfd: noticed when reaped, within a second

    def update(self, handlers: set[int]) -> None:
        """Forget ended handlers; replace a spare handler that died."""
        for pid in [p for p in self.busy if p not in handlers or _ended(self.busy[p])]:
            fd = self.busy.pop(pid)
            if fd >= 0:
                os.close(fd)
        if self.pid is not None and self.pid not in handlers:  # it died unused
            self.pid = None
            if self.channel is not None:
                self.channel.close()
                self.channel = None
        self.start(handlers)

    def fds(self) -> list[int]:
        return [fd for fd in self.busy.values() if fd >= 0]

    def close(self) -> None:
        """End the waiting handler (it sees end of file, discards its child and exits)."""
        if self.channel is not None:
            self.channel.close()
        for fd in self.fds():
            os.close(fd)


def _ended(pidfd: int) -> bool:
    return pidfd >= 0 and bool(select.select([pidfd], [], [], 0)[0])


def serve(path: str, *, idle: float, seed: int = 0) -> int:
    """Serve commands on ``path`` until idle, stopped, stale or replaced; the exit code."""
    expected = json.loads(os.environ.pop(_IDENTITY, "null")) or identity(os.environ)
    _warm()
    watched = stale.watched()
    stamp = stale.stamp(watched)
    stopping: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: stopping.append(signum))
    listener = _listen(path)
    inode = os.stat(path).st_ino
    handlers: set[int] = set()
    spare = _Spare(listener, expected, seed)
    served = 0  # connections handled before (the status answer shows them)
    last = time.monotonic()
    try:
        while not stopping and _still_ours(path, inode):
            _reap(handlers)
            spare.update(handlers)
            ready, _, _ = select.select([listener.fileno(), *spare.fds()], [], [], 1.0)
            if listener.fileno() not in ready:
                if handlers <= {spare.pid} and time.monotonic() - last > idle:
                    break
                continue
            sock, _ = listener.accept()
            last = time.monotonic()
            changed = stale.changed(watched, stamp)
            if changed:  # automock or a package changed: never run stale code
                print(f"automock server: ending, {changed} changed", file=sys.stderr, flush=True)
                with sock:
                    Connection(sock).send({"refuse": "automock changed since the server started"})
                break
            if not spare.hand(sock, served):
                pid = os.fork()
                if pid == 0:  # pragma: no cover - the handler (tested through the CLI)
                    listener.close()
                    os._exit(_handle(sock, expected, served))
                handlers.add(pid)
                spare.watch(pid)
            sock.close()
            served += 1
        if not stopping and not _still_ours(path, inode):
            print(f"automock server: ending, {path} was replaced", file=sys.stderr, flush=True)
    finally:
        spare.close()
        listener.close()
        if _still_ours(path, inode):
            os.unlink(path)
        leave_nothing(path)
    return 0


def _wait_as_spare(
    channel: socket.socket, expected: dict[str, Any], seed: int
) -> NoReturn:  # pragma: no cover
    """The waiting handler: prepare the spare child, then serve the one connection passed on
    ``channel`` (end of file: the server ended; discard the spare and exit)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    from automock.sandbox.run import spare

    try:
        spare.prepare(seed)
    except Exception as exc:  # the run then starts its child itself
        with contextlib.suppress(OSError):
            os.write(2, f"automock: no spare sandbox child: {type(exc).__name__}: {exc}\n".encode())
    code = 0
    try:
        message, fds = Connection(channel).receive()
    except OSError:
        message, fds = None, []
    channel.close()
    if message is not None and len(fds) == 1 and isinstance(message.get("served"), int):
        code = _handle(socket.socket(fileno=fds[0]), expected, message["served"])
    spare.discard()
    os._exit(code)


def _handle(sock: socket.socket, expected: dict[str, Any], before: int) -> int:  # pragma: no cover
    """One connection, in a forked handler: check it, take over the client, run it; the
    handler's exit code."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    code = 0
    conn = Connection(sock)
    try:
        if conn.peer_uid() != os.geteuid():
            return 0
        message, fds = conn.receive()
        kind = message.get("kind") if message is not None else None
        if kind in ("status", "stop"):
            conn.send({"server": os.getppid(), "connections": before, "identity": expected})
            if kind == "stop":
                os.kill(os.getppid(), signal.SIGTERM)
            return 0
        reason = _refusal(message, fds, expected)
        if reason is not None or message is None:
            conn.send({"refuse": reason})
            return 0
        _become_client(message, fds)
        if not _seed_matches(message["argv"]):  # the plan's seed is not this server's
            conn.send({"refuse": "the run's seed is not this server's"})
            return 0
        conn.send({"pid": os.getpid()})
        from automock.commands.dispatch import dispatch

        defer_removal()  # the client need not wait for the workdir and cgroup to go
        code = dispatch(message["argv"], _PARSERS)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        conn.send({"exit": code})
        _release_client()  # a pipe reading the command's output ends now, not after removal
    except BaseException as exc:  # the client went away, or our own failure: end here
        with contextlib.suppress(BaseException):
            os.write(2, f"automock: server handler failed: {type(exc).__name__}: {exc}\n".encode())
        code = 70
    finally:
        run_deferred()
    return code


def _release_client() -> None:  # pragma: no cover - in the handler
    """Let go of the client's stdin, stdout and stderr (``/dev/null`` in their place)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        with contextlib.suppress(OSError):
            os.dup2(null, fd)
    os.close(null)


def _refusal(
    message: dict[str, Any] | None, fds: list[int], expected: dict[str, Any]
) -> str | None:
    """Why this request will not run here (None: it will)."""
    if message is None:
        return "not a request"
    if message.get("kind") != "run" or len(fds) != 3:
        return "not a run request with stdin, stdout and stderr"
    if message.get("identity") != expected:
        return "the client's interpreter, automock or start-up environment differs"
    argv, env = message.get("argv"), message.get("env")
    if (
        not isinstance(argv, list)
        or not all(isinstance(a, str) for a in argv)
        or argv[:1] != ["run"]
    ):
        return "not an `automock run` command line"
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        return "bad environment"
    if not isinstance(message.get("cwd"), str) or not isinstance(message.get("umask"), int):
        return "bad directory or umask"
    return None


def _seed_matches(argv: list[str]) -> bool:
    """Is the run's hash seed (``--seed``, else its plan's, read in the client's directory)
    this server's? Only then may its sandbox child be forked from here."""
    from automock._seed import hash_seed_for
    from automock.commands.restart import run_seed

    seed = run_seed(argv)
    return seed is not None and hash_seed_for(seed) == os.environ.get("PYTHONHASHSEED")


def _become_client(message: dict[str, Any], fds: list[int]) -> None:  # pragma: no cover
    """Take the client's stdio, directory, umask and the variables automock reads."""

    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(message["cwd"])
    os.umask(message["umask"])
    for name in HANDLER_ENV:  # the rest (PYTHON*, locale, AUTOMOCK_*) stays the server's
        os.environ.pop(name, None)
        if name in message["env"]:
            os.environ[name] = message["env"][name]
    if hasattr(time, "tzset"):
        time.tzset()
    encoding, errors = sys.stdout.encoding, sys.stdout.errors
    sys.stdin = open(0, encoding=encoding, closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding=encoding, errors=errors, closefd=False)  # noqa: SIM115
    sys.stderr = open(  # noqa: SIM115
        2, "w", buffering=1, encoding=encoding, errors="backslashreplace", closefd=False
    )
