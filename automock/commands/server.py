"""``automock server start | stop | status``: the warm server for ``automock run``.

``start`` launches a server (:mod:`automock.commands.serve`) in the background for
this interpreter, this automock and the string-hash seed of ``--seed`` (default 0,
the seed of a drafted plan), and waits until it answers; ``automock run`` then
hands its command to it (:mod:`automock.commands.client`) and starts in a few
milliseconds instead of re-running the CLI's start-up. ``stop`` ends it;
``status`` says whether one is up. The server exits by itself after
``--idle-timeout`` seconds without a run (default 900) and when automock's code
changes. Without a server, ``automock run`` works exactly as before.

The server's stderr goes to a log beside its socket (``<socket>.log``); at its end the
server removes its socket, the log when it is empty, and the socket directory when
nothing else is in it. ``stop`` waits for that end and says where a log with text is kept.

``serve`` runs the server in the foreground (``start`` runs it so, detached).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from automock.commands.channel import (
    HANDLER_ENV,
    connect,
    identity,
    log_path,
    socket_dir,
    socket_path,
)
from automock.errors import InputError, SandboxError

__all__ = ["add_arguments", "run"]

_ROOM = 65536  # bytes of environment a forked run child may show (see commands.restart)
_START_WAIT = 20.0
_SUN_PATH_MAX = 107  # sockaddr_un.sun_path is 108 bytes on Linux, with its NUL


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("start", "stop", "status", "serve"))
    parser.add_argument(
        "--seed", type=int, default=0, help="the seed of the runs it serves (default 0)"
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=900.0,
        metavar="S",
        help="exit after S seconds without a run (default 900)",
    )


def _path(seed: int, *, create: bool = False) -> str:
    directory = socket_dir(create=create)
    if directory is None:
        raise InputError(
            "no private socket directory ($XDG_RUNTIME_DIR/automock or /tmp/automock-<uid>, "
            "owned by you, mode 0700); remove or fix it and retry"
        )
    path = socket_path(directory, seed)
    if len(os.fsencode(path)) > _SUN_PATH_MAX:  # bind() would fail in the detached server
        raise InputError(
            f"the warm server's socket path {path} is {len(os.fsencode(path))} bytes, more "
            f"than the {_SUN_PATH_MAX} a Unix socket allows; set XDG_RUNTIME_DIR to a "
            "shorter directory"
        )
    return path


def _ask(path: str, kind: str) -> dict[str, object] | None:
    """The server's answer to ``kind`` (status or stop), or None if none answers."""
    conn = connect(path) if os.path.exists(path) else None
    if conn is None:
        return None
    try:
        conn.send({"kind": kind})
        answer = conn.receive()[0]
        return answer if answer is not None and "server" in answer else None  # else refused
    except OSError:
        return None
    finally:
        conn.sock.close()


def _start(path: str, seed: int, idle: float) -> int:
    answer = _ask(path, "status")
    if answer is not None:
        print(f"automock: a warm server for seed {seed} is running (pid {answer['server']})")
        return 0
    from automock.commands.restart import RESTARTED, ROOM, restarted_environment

    env = {  # of automock's own variables only those it reads (see channel.HANDLER_ENV)
        k: v
        for k, v in restarted_environment(seed, room=_ROOM).items()
        if not k.startswith("AUTOMOCK_") or k in (*HANDLER_ENV, RESTARTED, ROOM)
    }
    import json

    env["AUTOMOCK_SERVER_IDENTITY"] = json.dumps(identity(os.environ))
    command = [sys.executable, "-P", "-m", "automock", "server", "serve", "--seed", str(seed)]
    log = log_path(path)  # removed by the server at its end when empty
    with open(log, "ab") as err:
        os.chmod(log, 0o600)
        subprocess.Popen(
            [*command, "--idle-timeout", str(idle)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=env,
            cwd="/",
            start_new_session=True,
        )
    deadline = time.monotonic() + _START_WAIT
    while time.monotonic() < deadline:
        answer = _ask(path, "status")
        if answer is not None:
            print(f"automock: warm server for seed {seed} started (pid {answer['server']}, {path})")
            return 0
        time.sleep(0.05)
    raise SandboxError(f"the warm server did not start within {_START_WAIT:.0f} s; see {log}")


def run(args: argparse.Namespace) -> int:
    path = _path(args.seed, create=args.action in ("start", "serve"))
    if args.action == "start":
        return _start(path, args.seed, args.idle_timeout)
    if args.action == "serve":
        from automock._seed import hash_seed_for
        from automock.commands.serve import serve

        if os.environ.get("PYTHONHASHSEED") != hash_seed_for(args.seed):
            raise InputError("automock server serve: use `automock server start` to start one")
        return serve(path, idle=args.idle_timeout, seed=args.seed)
    answer = _ask(path, args.action)
    if answer is None:
        print(f"automock: no warm server for seed {args.seed}")
        return 1 if args.action == "status" else 0
    verb = "stopping" if args.action == "stop" else "running"
    print(
        f"automock: warm server for seed {args.seed} {verb} (pid {answer['server']}, {path}; "
        f"{answer.get('connections', 0)} connections served)"
    )
    if args.action == "stop":
        _await_end(int(str(answer["server"])), path)
    return 0


def _await_end(pid: int, path: str) -> None:
    """Wait for the server to end (it removes its socket, and its log when empty), then
    say where a log with text is kept: what the server wrote on stderr, for a person."""
    deadline = time.monotonic() + _START_WAIT
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    log = log_path(path)
    if os.path.isfile(log) and os.path.getsize(log):
        print(
            f"automock: the server's log is kept at {log} ({os.path.getsize(log)} bytes it wrote "
            "on stderr); read it, then delete it"
        )


def _alive(pid: int) -> bool:
    """The process runs (a zombie waiting for its parent counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False
