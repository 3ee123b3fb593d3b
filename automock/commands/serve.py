"""The warm ``automock run`` server: a restarted CLI that forks one handler per command.

``automock run`` spends most of its time before the program starts on work that is
the same every time: a second interpreter start (the restart that fixes the
string-hash seed), imports, building the parser, warming the runtime. The server
is a CLI process restarted for one hash seed (:mod:`automock.commands.restart`),
with everything imported and warmed once; it listens on a socket in the user's
private directory (:mod:`automock.commands.channel`).

For each connection it forks a handler and goes back to waiting; it never reads a
request itself, so nothing of one command is left in it for the next. The handler
checks the peer's uid and that the client's interpreter, automock checkout,
start-up environment variables and locale are the server's (else it refuses and
the client runs the command itself), takes over the client's stdin, stdout,
stderr, directory, umask and scrubbed environment, and runs the command line with
:func:`automock.commands.dispatch.dispatch`, as the restarted CLI would. A run's
sandbox child is forked from the handler exactly as from the CLI (same hash seed,
same scrubbed environment, one thread), so every isolation layer and every
observation of it is the same.

Lifetime: the server ends after ``idle`` seconds without a connection, when its
socket is removed or replaced, on ``automock server stop`` (SIGTERM), and when
any of automock's source files, or a directory on ``sys.path`` (a package
installed or removed), changed since it started: it refuses that connection (the
client runs the command itself) and exits, so stale code never runs.
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

from automock.commands.channel import HANDLER_ENV, Connection, identity

__all__ = ["serve"]

_PARSERS: dict[str, argparse.ArgumentParser] = {}  # built once, before the first connection
_IDENTITY = "AUTOMOCK_SERVER_IDENTITY"  # the starting client's identity (automock server start)


def _watched() -> list[str]:
    """automock's source files and directories, every directory on ``sys.path`` (a package
    installed or removed changes it) and the interpreter: what a stale server would miss."""
    import automock

    package = os.path.dirname(os.path.abspath(automock.__file__))
    paths = [sys.executable, *(p for p in sys.path if p)]
    for top, dirs, files in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        paths += [top, *(os.path.join(top, name) for name in files if name.endswith(".py"))]
    return paths


def _stamp(paths: list[str]) -> list[tuple[int, int] | None]:
    """(mtime, size) of each of ``paths`` (None: gone)."""
    found: list[tuple[int, int] | None] = []
    for path in paths:
        try:
            info = os.stat(path)
            found.append((info.st_mtime_ns, info.st_size))
        except OSError:
            found.append(None)
    return found


def _warm() -> None:
    """Import and warm what every run needs, once, before the first connection."""
    import automock.commands.run
    import automock.pipeline.run
    import automock.sandbox.run.forked as forked

    forked.warm()
    import automock.commands._record
    from automock.commands.dispatch import build_parser

    _PARSERS["run"] = build_parser("run")
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


def serve(path: str, *, idle: float) -> int:
    """Serve commands on ``path`` until idle, stopped, stale or replaced; the exit code."""
    expected = json.loads(os.environ.pop(_IDENTITY, "null")) or identity(os.environ)
    _warm()
    watched = _watched()
    stamp = _stamp(watched)
    stopping: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: stopping.append(signum))
    listener = _listen(path)
    inode = os.stat(path).st_ino
    handlers: set[int] = set()
    served = 0  # connections handled before (the status answer shows them)
    last = time.monotonic()
    try:
        while not stopping and _still_ours(path, inode):
            ready, _, _ = select.select([listener], [], [], 1.0)
            _reap(handlers)
            if not ready:
                if not handlers and time.monotonic() - last > idle:
                    break
                continue
            sock, _ = listener.accept()
            last = time.monotonic()
            if _stamp(watched) != stamp:  # automock or a package changed: never run stale code
                with sock:
                    Connection(sock).send({"refuse": "automock changed since the server started"})
                break
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the handler (tested through the CLI)
                listener.close()
                _handle(sock, expected, served)
            sock.close()
            handlers.add(pid)
            served += 1
    finally:
        listener.close()
        if _still_ours(path, inode):
            os.unlink(path)
    return 0


def _handle(
    sock: socket.socket, expected: dict[str, Any], before: int
) -> NoReturn:  # pragma: no cover
    """One connection, in a forked handler: check it, take over the client, run it."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    code = 0
    conn = Connection(sock)
    try:
        if conn.peer_uid() != os.geteuid():
            os._exit(0)
        message, fds = conn.receive()
        kind = message.get("kind") if message is not None else None
        if kind in ("status", "stop"):
            conn.send({"server": os.getppid(), "connections": before, "identity": expected})
            if kind == "stop":
                os.kill(os.getppid(), signal.SIGTERM)
            os._exit(0)
        reason = _refusal(message, fds, expected)
        if reason is not None or message is None:
            conn.send({"refuse": reason})
            os._exit(0)
        _become_client(message, fds)
        if not _seed_matches(message["argv"]):  # the plan's seed is not this server's
            conn.send({"refuse": "the run's seed is not this server's"})
            os._exit(0)
        conn.send({"pid": os.getpid()})
        from automock.commands.dispatch import dispatch

        code = dispatch(message["argv"], _PARSERS)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        conn.send({"exit": code})
    except BaseException as exc:  # the client went away, or our own failure: end here
        with contextlib.suppress(BaseException):
            os.write(2, f"automock: server handler failed: {type(exc).__name__}: {exc}\n".encode())
        code = 70
    os._exit(code)


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
