"""Command-line front end: ``automock scan | draft | run | check | batch | server``.

The parsing and the subcommands live in :mod:`automock.commands` (see
:mod:`automock.commands.dispatch`). The command itself (``main()`` without
arguments) first restarts ``automock run`` with the run's string-hash seed
(:mod:`automock.commands.restart`), or hands the whole command to a warm
server when one is running (:mod:`automock.commands.client`); a run ends the
process at once when done: it removed what it made itself, and interpreter
finalization would only cost time.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

TYPE_CHECKING = False  # not typing's: the command must not import typing before it restarts
if TYPE_CHECKING:
    from typing import NoReturn

__all__ = ["main"]


def _exit_now(code: int) -> NoReturn:
    """Flush the standard streams and end the process with ``code`` (no finalization)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe, as interpreter exit would say
            code = code or 120
    os._exit(code)


def interrupted() -> int:
    """Ctrl-C before a command took over its own (while starting up): no traceback, and the
    run's child started early is not left behind."""
    early = sys.modules.get("automock.sandbox.run.spare")
    if early is not None:
        early.discard()
    print("automock: interrupted", file=sys.stderr)
    return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code instead of exiting (testable in-process)."""
    try:
        if argv is None:
            from automock.commands.client import run_early

            served = run_early(sys.argv[1:])  # may exec itself; a warm server's exit code
            if served is not None:
                _exit_now(served)
        from automock.commands.dispatch import dispatch  # after the restart: imported once
    except KeyboardInterrupt:
        return interrupted()

    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        code = dispatch(args_list)
    finally:
        early = sys.modules.get("automock.sandbox.run.spare")
        if early is not None:  # a run's child started early that the run did not take
            early.discard()
    if argv is None and args_list[:1] == ["run"]:  # the run removed what it made already
        _exit_now(code)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
