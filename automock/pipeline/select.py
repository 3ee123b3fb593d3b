"""Candidate selection without a reference: behavioural clusters and CodeT-style agreement.

:func:`select_many` runs every candidate of a problem on the same generated
inputs (:func:`~automock.properties.amplify.generate_inputs`: the tests'
inputs, their mutations, draws like them and from the prompt's type hints,
with ints bounded near the tests' (:func:`~automock.properties.amplify.bounded`,
``max(20, 2 x`` their largest): nothing times the inputs here, and a size the
right candidates time out on leaves them out of every cluster) in the sandbox,
through the same trusted harness as :func:`~automock.pipeline.amplify.amplify_many`
(the inputs live only in the test process). Candidates whose outputs agree on
every input form a cluster. A cluster's score is its size times the number of
the given tests' cases its behaviour passes (CodeT's dual agreement: many
candidates agreeing, and agreeing with the tests); with no readable test
case, its size alone. The chosen candidate is the lowest index of the best
cluster; candidates that crashed or timed out join no cluster.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from automock.pipeline.amplify import (
    AmplifiedResult,
    Cluster,
    Selection,
    prompt_function,
    run_candidates,
)
from automock.properties.amplify import DEFAULT_COUNT, bounded, generate_inputs
from automock.properties.harness import harness_tests, read_summary
from automock.properties.outputs import size_of
from automock.properties.testcases import TestCase, cases_from_tests
from automock.sandbox.batch.candidates import Candidate

__all__ = ["cluster", "select_many"]


def _tests_of(candidate: Candidate, count: int, seed: int) -> tuple[int, str, int]:
    """``(inputs, harness text, readable cases)`` for the candidate's problem."""
    tests, entry = candidate.test or "", candidate.entry_point or ""
    try:
        cases: list[TestCase] = [c for c in cases_from_tests(tests, entry) if c.compare]
    except Exception:  # tests that do not parse: no agreement with them
        cases = []
    pool = generate_inputs(
        tests, entry, count=count, signature_of=prompt_function(candidate), seed=seed
    )
    inputs = sorted(bounded(pool, [c.args for c in cases], floor=20, factor=2)[:count], key=size_of)
    return len(inputs), harness_tests(inputs, None, cases), len(cases)


def cluster(task_id: str, results: Sequence[AmplifiedResult], inputs: int, cases: int) -> Selection:
    """Group ``results`` (one problem's) by output signature; rank; choose."""
    groups: dict[str, list[AmplifiedResult]] = {}
    for res in results:
        if res.signature:
            groups.setdefault(res.signature, []).append(res)
    clusters = []
    for signature, members in groups.items():
        agreement = members[0].cases_passed if cases else 1
        clusters.append(
            Cluster(
                signature=signature,
                members=tuple(sorted(m.index for m in members)),
                cases_passed=members[0].cases_passed,
                score=float(len(members) * agreement),
            )
        )
    clusters.sort(key=lambda c: (-c.score, -len(c.members), c.members[0]))
    fallback = min((r.index for r in results), default=0)
    chosen = clusters[0].members[0] if clusters else fallback
    return Selection(task_id=task_id, chosen=chosen, inputs=inputs, clusters=tuple(clusters))


def select_many(
    candidates: Sequence[Candidate],
    *,
    count: int = DEFAULT_COUNT,
    seed: int = 0,
    **options: Any,
) -> tuple[list[AmplifiedResult], list[Selection]]:
    """Each candidate's behaviour on generated inputs, and each problem's selection.

    ``options`` go to :func:`~automock.sandbox.batch.pool.execute_many`.
    """
    options = {**options, "seed": seed}
    harness: dict[str, tuple[int, str, int]] = {}
    for cand in candidates:
        if cand.task_id not in harness:
            harness[cand.task_id] = _tests_of(cand, count, seed)
    runs = [replace(c, test=harness[c.task_id][1]) for c in candidates]
    results: list[AmplifiedResult] = []
    for result in run_candidates(runs, options):
        summary = read_summary(result.detail or "")
        if summary is None:
            detail = result.detail or str(result.status)
            results.append(
                AmplifiedResult(result.task_id, result.index, str(result.status), detail=detail)
            )
            continue
        results.append(
            AmplifiedResult(
                result.task_id,
                result.index,
                "ran",
                inputs_tried=int(summary.get("tried", 0)),
                seconds=float(summary.get("seconds", 0.0)),
                signature=str(summary.get("sig", "")),
                cases_passed=int(summary.get("cases", 0)),
            )
        )
    selections = []
    for task_id, (inputs, _, cases) in harness.items():
        mine = [r for r in results if r.task_id == task_id]
        selections.append(cluster(task_id, mine, inputs, cases))
    return results, selections
