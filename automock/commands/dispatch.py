"""Parse a command line and run its subcommand: the body of ``automock.cli.main``.

Each subcommand lives in ``automock/commands/<name>.py`` and exposes
``add_arguments(parser)`` and ``run(args) -> int``; it is imported only when
chosen, so ``automock --help`` stays fast. Every :class:`AutomockError`
becomes a one-line ``automock: error: ...`` message and its exit code; no
traceback reaches the user unless ``AUTOMOCK_DEBUG=1``. Shared by the
command itself (:mod:`automock.cli`) and the warm server
(:mod:`automock.commands.serve`), which runs a client's command line here.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

from automock.errors import EXIT_INPUT, EXIT_INTERNAL, AutomockError, RunInterrupted

TYPE_CHECKING = False  # not typing's: the command must not import typing before it restarts
if TYPE_CHECKING:
    import argparse

__all__ = ["COMMANDS", "build_parser", "dispatch"]

COMMANDS: dict[str, str] = {
    "scan": "find time/random/network/database/... touchpoints in Python files",
    "draft": "draft a plan of mocks and fixtures for a file (fixtures/<stem>.automock.json)",
    "run": "run a file deterministically in the sandbox with its touchpoints mocked",
    "check": "check properties (permutation, subset, sorted, ...) of a function's outputs",
    "batch": "run many candidate programs in the sandbox pool; pass@k",
    "server": "start, stop or query the warm server that makes `automock run` start fast",
}


def _parser_class() -> type[argparse.ArgumentParser]:
    import argparse

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            self.exit(EXIT_INPUT, f"{self.prog}: error: {message}\n")

    return _Parser


def _chosen_command(argv: Sequence[str]) -> str | None:
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in COMMANDS else None
    return None


def _module(name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"automock.commands.{name}")


def build_parser(chosen: str | None) -> argparse.ArgumentParser:
    """The ``automock`` parser, with the arguments of subcommand ``chosen`` only."""
    parser_class = _parser_class()
    parser = parser_class(
        prog="automock", description="Make nondeterministic Python code run deterministically."
    )
    from automock import __version__

    parser.add_argument("--version", action="version", version=f"automock {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=parser_class)
    sub.required = True
    for name, help_text in COMMANDS.items():
        cmd_parser = sub.add_parser(name, help=help_text, description=help_text)
        if chosen == name:
            _module(name).add_arguments(cmd_parser)
    return parser


def dispatch(
    args_list: Sequence[str], parsers: dict[str, argparse.ArgumentParser] | None = None
) -> int:
    """Run the command line ``args_list`` (without the program name); its exit code.

    ``parsers`` holds parsers built ahead by :func:`build_parser` (e.g. in the warm server),
    by chosen subcommand; parsing does not change them.
    """
    chosen = _chosen_command(args_list)
    ready = (parsers or {}).get(chosen or "")
    parser = ready if ready is not None else build_parser(chosen)
    try:
        args = parser.parse_args(list(args_list))
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_INPUT
    try:
        return int(_module(args.command).run(args))
    except AutomockError as exc:
        print(f"automock: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt as exc:
        if isinstance(exc, RunInterrupted):  # a run's output so far, then the interruption
            from automock._display import gutter, visible_lines

            sys.stdout.write(visible_lines(exc.stdout))
            sys.stdout.flush()
            sys.stderr.write(gutter(exc.stderr))
        print("automock: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # our own bug: say so in one line unless debugging
        if os.environ.get("AUTOMOCK_DEBUG"):
            raise
        print(
            f"automock: internal error: {type(exc).__name__}: {exc} "
            "(set AUTOMOCK_DEBUG=1 for a traceback and please report it)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
