"""The thin client: hand ``automock run`` to a warm server when one is up for it.

Called by :func:`run_early` in the ``automock``
command, before anything else is imported, with the run's ``--seed`` (default 0). If a
server for this interpreter, this automock and that string-hash seed listens in
the user's private socket directory (:mod:`automock.commands.channel`), the
client sends it the command line, the current directory, the umask, the
variables automock reads (:data:`automock.commands.channel.HANDLER_ENV`; no
token or key ever reaches the server) and its own stdin, stdout and
stderr, then waits for the exit code. The server's forked handler runs the
command exactly as the restarted CLI would (:mod:`automock.commands.serve`).

Any doubt means no server (``None``: the caller restarts as usual): no
socket, a socket of someone else, a refusal (a different environment, a plan
with another seed, automock's code changed since the server started). ``AUTOMOCK_SERVER=0``
turns the client off. Ctrl-C and ``SIGTERM`` are passed on to the handler,
which ends the run as the CLI would (exit 130). Once the server has accepted
the run, its end is the command's end: nothing is run twice.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # not signal: its enums cost an import of enum
import os
import sys
from collections.abc import Sequence

from automock.commands.channel import (
    HANDLER_ENV,
    Connection,
    connect,
    identity,
    socket_dir,
    socket_path,
)

__all__ = ["run_early", "run_remotely"]


def _connect(seed: int) -> Connection | None:
    directory = socket_dir()
    if directory is None:
        return None
    path = socket_path(directory, seed)
    return connect(path) if os.path.exists(path) else None


def _stdio() -> tuple[int, int, int]:
    """Descriptors 0, 1 and 2, or ``/dev/null`` for any that is closed."""
    found = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
            found.append(fd)
        except OSError:
            found.append(os.open(os.devnull, os.O_RDWR))
    return found[0], found[1], found[2]


def _request(argv: Sequence[str]) -> dict[str, object]:
    umask = os.umask(0o022)
    os.umask(umask)
    return {
        "kind": "run",
        "argv": list(argv),
        "cwd": os.getcwd(),
        "umask": umask,
        "env": {k: os.environ[k] for k in HANDLER_ENV if k in os.environ},
        "identity": identity(os.environ),
    }


def run_remotely(seed: int, argv: Sequence[str]) -> int | None:
    """The exit code of ``automock <argv>`` run by a warm server, or None (no server)."""
    if os.environ.get("AUTOMOCK_SERVER") == "0" or _wants_model(argv):
        return None
    conn = _connect(seed)
    if conn is None:
        return None
    try:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        try:
            conn.send(_request(argv), fds=_stdio())
            reply, _ = conn.receive()
        except OSError:
            return None
        if reply is None or not isinstance(reply.get("pid"), int):
            return None  # refused: run it here
        return _wait(conn, reply["pid"])
    finally:
        conn.sock.close()


def _wants_model(argv: Sequence[str]) -> bool:
    """Has the person chosen the LLM drafter for this run? A server never holds an API key
    (:data:`HANDLER_ENV`), so such a run is not sent to it: it would draft without the model."""
    head = list(argv[: argv.index("--")] if "--" in argv else argv)
    choice = None
    for i, arg in enumerate(head):
        if arg == "--drafter" and i + 1 < len(head):
            choice = head[i + 1]
        elif arg.startswith("--drafter="):
            choice = arg.split("=", 1)[1]
    from automock._drafter import chosen_drafter
    from automock.errors import AutomockError

    try:
        return chosen_drafter(choice) == "llm"
    except AutomockError:
        return True  # said clearly by the run itself, here


def _wait(conn: Connection, handler: int) -> int:
    """The handler's exit code; Ctrl-C and SIGTERM are passed on to it meanwhile."""

    def forward(signum: int, frame: object) -> None:
        try:  # noqa: SIM105 - contextlib is one more import for every client
            os.kill(handler, signum)
        except OSError:
            pass

    _signal.signal(_signal.SIGTERM, forward)
    _signal.signal(_signal.SIGINT, forward)
    try:
        reply, _ = conn.receive()
    except OSError:
        reply = None
    if reply is None or not isinstance(reply.get("exit"), int):
        from automock.errors import EXIT_INTERNAL  # only now: every client would import it

        print(
            "automock: error: the warm server's run ended without an exit code "
            "(see `automock server status`; AUTOMOCK_SERVER=0 runs without it)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    return int(reply["exit"])


def run_early(argv: Sequence[str]) -> int | None:
    """For ``automock run`` as a command: a warm server's exit code for it, or (no server,
    or it refused; only with ``--no-stable-addresses``, whose sandbox child is forked from
    this process) restart with the run's hash seed right away (no return).

    The server is asked first, before the plan is read: the one for ``--seed`` (default 0,
    a drafted plan's seed); it refuses a run whose plan has another seed.
    """
    from automock.commands.restart import invoked_as_cli, quick_read, restart_for_run

    if not argv or argv[0] != "run":
        return None
    read = quick_read(argv[1:])
    if read is None or "PYTHONHASHSEED" in os.environ or not invoked_as_cli():
        return None
    code = run_remotely(read[0] if read[0] is not None else 0, argv)
    if code is not None:
        return code
    head = argv[1 : argv.index("--")] if "--" in argv else argv[1:]
    if "--no-stable-addresses" in head:  # the sandbox child is forked from this process
        restart_for_run(*read)
    else:
        _start_early(read, head)
    return None  # else every run is a fresh interpreter: nothing inherits our hashing


# a run with these gets a child that isolates after its spec, or none at all (several seeds)
_NOT_AHEAD = ("--allow-network", "--read", "--seeds")


def _start_early(read: tuple[int | None, str | None, str], head: Sequence[str]) -> None:
    """Start the run's sandbox interpreter now, before this command imports the rest of
    automock, scans the file and reads its plan: the child's own start-up (~80 ms) then
    runs meanwhile. It is started as a server's spare is (:mod:`automock.sandbox.run.spare`),
    and the run takes it only if it fits (the seed's hash seed, no plan variables, the
    network denied, no ``--read``), else it is ended and the run starts its own; the
    command ends an unused one (:func:`automock.cli.main`). Any failure: the run starts
    its child itself, as before."""
    if any(flag == name or flag.startswith(name + "=") for flag in head for name in _NOT_AHEAD):
        return
    from automock.commands.restart import seed_of

    try:
        from automock.sandbox.run import spare

        spare.prepare(seed_of(*read), label="early")
    except Exception:  # the run starts its own child (and says why if it cannot)
        pass
