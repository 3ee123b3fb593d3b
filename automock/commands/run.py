"""``automock run FILE [-- ARGS...]``: run a file deterministically in the sandbox.

The plan comes from ``--plan``, else ``fixtures/<stem>.automock.json`` (in
the current directory, then next to FILE), else the rules drafter. The
program's stdout and stderr are printed as they were, then the report on
stderr (or everything as one JSON document with ``--json``).

Exit code: the program's own; 124 timeout, 125 memory limit, 126 sandbox
violation, 5 unmocked access (program died of ``UnmockedAccessError``);
4 when ``--repeat`` runs differ although the first run succeeded (exit 0);
automock's own errors per :mod:`automock.errors` (2 bad input, 3 bad plan).

``--record [--record-mode once|new_episodes|all]`` is the one way to reach
the real network and keep what it said: the HTTP traffic is recorded into
``fixtures/<stem>.cassette.yaml`` and the plan then replays it offline (see
:mod:`automock.commands._record`). ``--cassette PATH`` replays (or, with
``--record``/``--record-mode``, records) that cassette instead of the plan's
(:mod:`automock.commands._cassette`).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from automock._source import not_python_reason
from automock._uptime import with_command_time
from automock.commands._drafting import add_draft_rounds, add_run_drafter, drafting_loop
from automock.errors import EXIT_NONDETERMINISTIC, InputError, describe_missing

if TYPE_CHECKING:
    from automock.pipeline import LoadedPlan
    from automock.plan.model import Plan
    from automock.sandbox.kernel.isolation import Limits

__all__ = ["RECORD_CHOICES", "add_arguments", "run"]

RECORD_CHOICES = ("once", "new_episodes", "all")  # vcrpy record modes for --record


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text}")
    return value


def _seed(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {text!r}") from None


def _seed_list(text: str) -> list[int]:
    seeds = [_seed(part.strip()) for part in text.split(",") if part.strip()]
    if len(seeds) < 2 or len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"expected two or more different seeds, got {text!r}")
    return seeds


class _OptionParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(f"automock run: {message}")


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--repeat",
        type=_positive_int,
        default=1,
        metavar="N",
        help="run N times and compare (default 1)",
    )
    parser.add_argument("--check-determinism", action="store_true", help="same as --repeat 2")
    parser.add_argument(
        "--timeout",
        type=_positive_float,
        default=30.0,
        metavar="S",
        help="wall-clock limit per run, from the program's start (default 30)",
    )
    parser.add_argument(
        "--memory-mb",
        type=_positive_int,
        default=1024,
        metavar="MB",
        help="address-space limit (default 1024)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON report on stdout instead of the program's output",
    )
    parser.add_argument(
        "--seed",
        type=_seed,
        default=None,
        help="seed for every random source (default: the plan's)",
    )
    parser.add_argument(
        "--seeds",
        type=_seed_list,
        default=None,
        metavar="S,S,...",
        help="run once per seed and show which output lines depend on the seed, with the "
        "properties they keep (e.g. 0,1,2)",
    )
    parser.add_argument(
        "--allow-network", action="store_true", help="no network namespace; real network allowed"
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help="reach the real network (as --allow-network) and record the HTTP traffic into "
        "fixtures/<stem>.cassette.yaml; later runs replay it offline",
    )
    parser.add_argument(
        "--record-mode",
        choices=RECORD_CHOICES,
        default=None,
        help="vcrpy record mode with --record or --cassette (records; default once)",
    )
    parser.add_argument(
        "--cassette",
        metavar="PATH",
        default=None,
        help="replay this vcrpy cassette (instead of the plan's); with --record or "
        "--record-mode, record into it",
    )
    parser.add_argument(
        "--plan",
        metavar="PATH",
        default=None,
        help="plan file (default fixtures/<stem>.automock.json)",
    )
    parser.add_argument(
        "--read",
        action="append",
        default=[],
        metavar="PATH",
        help="let the program read PATH (a file or directory; repeatable); beside it only "
        "the interpreter, sys.path, system libraries and the workdir are readable",
    )
    parser.add_argument(
        "--no-stable-addresses",
        action="store_true",
        help="fork runs from this process instead of a fresh interpreter with ASLR off per run "
        "(faster; default reprs, id() and sets of plain objects then vary between runs)",
    )
    add_draft_rounds(parser, "when the plan is drafted for this run, ")
    add_run_drafter(parser)
    parser.add_argument(
        "--no-save",
        action="store_true",
        help="when no plan exists, draft one for this run without writing it under fixtures/ "
        "(nor the scan cache under .automock-cache/)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _add_options(parser)
    # FILE and everything after it in one REMAINDER, so a "--" survives argparse
    parser.add_argument(
        "args",
        nargs=argparse.REMAINDER,
        metavar="FILE [-- ARGS]",
        help="the Python file to run as __main__, then arguments for it after --",
    )


def _program_args(args: argparse.Namespace) -> list[str]:
    """Options given after FILE are automock's; everything after ``--`` is the program's."""
    rest = list(args.args)
    if not rest or rest[0] == "--":
        raise InputError("automock run: give the FILE to run, e.g. automock run app.py -- --flag")
    args.file, rest = rest[0], rest[1:]
    head, tail = (
        (rest[: rest.index("--")], rest[rest.index("--") + 1 :]) if "--" in rest else (rest, [])
    )
    if not head:
        return tail
    options = _OptionParser(prog="automock run", add_help=False)
    _add_options(options)
    _, leftovers = options.parse_known_args(head, namespace=args)
    unknown = [a for a in leftovers if a.startswith("-")]
    if unknown:
        raise InputError(
            f"automock run: unknown option {unknown[0]}; put program arguments after --"
        )
    return leftovers + tail


def _find_plan(file: Path, explicit: str | None, *, save: bool) -> LoadedPlan:
    """The plan to run with (:func:`automock.pipeline.load_or_draft`); ``--plan`` must be a file."""
    from automock.pipeline import load_or_draft

    if explicit is not None and not Path(explicit).is_file():
        problem = "not a regular file" if Path(explicit).exists() else "no such file"
        raise InputError(f"--plan {explicit}: {problem}; write one with `automock draft {file}`")
    return load_or_draft(file, explicit, save=save)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _check_seeds(args: argparse.Namespace) -> None:
    if args.seeds is None:
        return
    for given, flag in (
        (args.seed is not None, "--seed"),
        (args.repeat != 1 or args.check_determinism, "--repeat/--check-determinism"),
        (args.record, "--record"),
    ):
        if given:
            raise InputError(f"--seeds with {flag}: give one of them (--seeds runs once per seed)")


def _run_seeds(
    args: argparse.Namespace,
    file: Path,
    plan: Plan,
    extra: list[str],
    limits: Limits,
    notes: list[str],
) -> int:
    """``--seeds``: one run per seed, the outputs compared line by line."""
    from automock.pipeline.seeds import run_seeds

    report = run_seeds(
        file,
        plan,
        args.seeds,
        args=extra,
        timeout=args.timeout,
        limits=limits,
        allow_network=args.allow_network,
        plan_label="",
        cache_dir=None if args.no_save else ".automock-cache",
        readable=args.read,
        stable_addresses=not args.no_stable_addresses,
    )
    if args.json:
        import json

        data = {**report.to_dict(), "automock_exit_code": report.exit_code, "notes": notes}
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        from automock._display import visible

        sys.stdout.write(report.render() + "\n")  # its program lines shown escaped
        for note in notes:
            print(f"automock: {visible(note)}", file=sys.stderr)
    return report.exit_code


def run(args: argparse.Namespace) -> int:
    extra = _program_args(args)
    file = Path(args.file)
    if not file.is_file():
        raise InputError(f"{file}: {describe_missing(file)}; give the path of a Python file to run")
    if (reason := not_python_reason(file)) is not None:
        raise InputError(f"{file}: {reason}")
    _check_seeds(args)
    from automock.commands.restart import restart_for_run

    if args.no_stable_addresses:  # the sandbox child may be forked from us (a no-op when
        restart_for_run(args.seed, args.plan, str(file))  # cli.main restarted already)
    from automock.commands._cassette import check_replay, user_paths, with_cassette
    from automock.commands._record import (
        Recording,
        check_plan_cassette,
        replay_hint,
        resolve_cassette,
    )
    from automock.pipeline.run import run_file
    from automock.plan.rights import check_rights
    from automock.sandbox.kernel.isolation import Limits

    if args.record_mode is not None and not args.record:
        if args.cassette is None:
            raise InputError(
                f"--record-mode {args.record_mode}: only used with --record; add --record"
            )
        args.record = True  # --cassette PATH --record-mode MODE: record into PATH
    located = _find_plan(file, args.plan, save=not args.no_save)
    located, loop = drafting_loop(args, file, located, extra)
    plan, label, notes, plan_path = located.plan, located.label, list(located.notes), located.path
    if args.cassette is not None:  # the person's cassette replaces the plan's
        plan = with_cassette(plan, plan_path, args.cassette)
    else:
        check_plan_cassette(plan, plan_path, file)
    network = args.allow_network or args.record  # the person's flags: the plan asks no more
    check_rights(plan, str(plan_path), allow_network=network, record=args.record)
    recording = None
    if args.record:  # a person's explicit choice: the real network, recorded for replay
        recording = Recording.start(plan, plan_path, file, args.record_mode or "once")
        run_plan = recording.run_plan(plan)
        notes += recording.notes
    else:
        run_plan = resolve_cassette(plan, plan_path, file)
        check_replay(run_plan, file, args.cassette)
    repeat = max(args.repeat, 2) if args.check_determinism else args.repeat
    limits = Limits(cpu_seconds=int(args.timeout) + 1, memory_mb=args.memory_mb)
    if args.seeds is not None:
        return _run_seeds(args, file, run_plan, extra, limits, notes)
    # SIGTERM ends the run like Ctrl-C: the sandboxed child (own session) is killed first
    previous = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        report = run_file(
            file,
            run_plan,
            args=extra,
            timeout=args.timeout,
            limits=limits,
            seed=args.seed,
            allow_network=args.allow_network or args.record,
            record=args.record,
            repeat=repeat,
            plan_label=label,
            cache_dir=None if args.no_save else ".automock-cache",  # the scan, by content hash
            readable=args.read,
            stable_addresses=not args.no_stable_addresses,
        )
    finally:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, previous)
    report = with_command_time(report)  # timings.command: the whole command so far
    code = report.exit_code
    if report.deterministic is False and code == 0:
        code = EXIT_NONDETERMINISTIC
    after: list[str] = []
    if recording is not None:
        after = recording.finish(plan)
        report = recording.annotate(report)
    else:
        after = replay_hint(report, run_plan, file)
    # plan notes (drafted/stale) follow the program's output, with the report
    after = notes + after
    shown = user_paths(run_plan)  # the sandbox's copy of the cassette, named as the person's
    if args.json:
        data = report.to_dict()
        data["automock_exit_code"] = code
        data["notes"] = after
        if loop is not None:
            data["drafting"] = loop.to_dict()
        if recording is not None:
            data["record"] = {**recording.result, "notes": after}
        import json

        sys.stdout.write(shown(json.dumps(data, indent=2)) + "\n")
        return code
    _print_text(report.stdout, shown(report.stderr), shown(report.render(terminal=_tty())), after)
    return code


def _tty() -> bool:
    from automock._display import terminal

    return terminal(sys.stderr)


def _print_text(stdout: str, stderr: str, rendered: str, notes: list[str]) -> None:
    """The program's output, neutralised (its escape sequences shown, never sent; its stderr
    lines behind a gutter), then automock's report and notes on stderr (docs/sandbox.md)."""
    from automock._display import gutter, visible, visible_lines

    sys.stdout.write(visible_lines(stdout))
    sys.stdout.flush()
    sys.stderr.write(gutter(stderr))
    sys.stderr.write(rendered + "\n")
    for note in notes:
        print(f"automock: {visible(note)}", file=sys.stderr)
