"""``automock batch --amplify [N]`` and ``--select``: beyond the given tests.

``--amplify``: each candidate also runs on up to N generated inputs against a
reference (:func:`automock.pipeline.amplify.amplify_many`); it passes only if
it passes its tests *and* agrees with the reference. The reference is the
problem's ``canonical_solution`` (``--problems``, human-eval/MBPP format) or
``--reference FILE[::FUNCTION]`` (FUNCTION defaults to each task's entry point).

``--select``: no reference; candidates are clustered by behaviour
(:func:`automock.pipeline.select.select_many`); the summary gives the chosen
candidate per problem and the pass@1 (on the given tests) of the selection
against a random sample's.

Each result line gains an ``amplify`` object (an
:class:`~automock.pipeline.amplify.AmplifiedResult`); the JSON summary gains
``amplify`` (rejections) or ``selection`` (clusters, chosen, pass@1s).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from automock.errors import InputError

__all__ = ["add_arguments", "amplify_results", "references_for", "selection_summary"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--amplify",
        nargs="?",
        type=int,
        const=200,
        default=None,
        metavar="N",
        help="also judge each candidate on up to N generated inputs against a reference "
        "(default N 200; see docs/amplify.md)",
    )
    parser.add_argument(
        "--reference",
        metavar="FILE[::FUNCTION]",
        help="the reference for --amplify (default: the problems' canonical_solution)",
    )
    parser.add_argument(
        "--select",
        action="store_true",
        help="no reference: cluster each problem's candidates by behaviour, choose one",
    )


def references_for(
    args: argparse.Namespace, candidates: Sequence[Any]
) -> dict[str, Callable[..., Any]]:
    """A reference function per task: ``--reference`` or the problems' canonical solutions."""
    from automock.pipeline.amplify import reference_function

    found: dict[str, Callable[..., Any]] = {}
    entries = {c.task_id: c.entry_point for c in candidates}
    if args.reference:
        path, _, name = args.reference.partition("::")
        target = Path(path)
        if not target.is_file():
            raise InputError(f"--reference {path}: no such file; name a .py file[::function]")
        text = target.read_text("utf-8")
        for task, entry in entries.items():
            if name or entry:
                found[task] = reference_function(text, name or str(entry))
        return found
    if not args.problems:
        raise InputError(
            "--amplify needs a reference: --problems with canonical_solution, or --reference FILE"
        )
    from automock.sandbox.batch.candidates import load_problems

    problems = load_problems(args.problems)
    for task, entry in entries.items():
        record = problems.get(task, {})
        solution = record.get("canonical_solution")
        if isinstance(solution, str) and entry:
            found[task] = reference_function(str(record.get("prompt", "")) + solution, str(entry))
    return found


def amplify_results(
    args: argparse.Namespace, candidates: Sequence[Any], options: dict[str, Any]
) -> list[Any]:
    from automock.pipeline.amplify import amplify_many

    if args.amplify < 1:
        raise InputError(f"--amplify {args.amplify}: need at least 1 input")
    refs = references_for(args, candidates)
    missing = sorted({c.task_id for c in candidates} - set(refs))
    if missing:
        raise InputError(
            f"--amplify: no reference for {missing[0]} (and {len(missing) - 1} more); "
            "add canonical_solution to --problems or pass --reference FILE::FUNCTION"
        )
    return amplify_many(candidates, refs, count=args.amplify, seed=args.seed, **options)


def selection_summary(
    candidates: Sequence[Any],
    results: Sequence[Any],
    options: dict[str, Any],
    count: int,
    seed: int,
) -> dict[str, Any]:
    """Clusters and the chosen candidate per problem; pass@1 (given tests) of the choice
    against the expected pass@1 of a random sample."""
    from automock.pipeline.select import select_many

    _, selections = select_many(candidates, count=count, seed=seed, **options)
    passed = {(r.task_id, r.index): bool(r.passed) for r in results}
    chosen_ok = [passed.get((s.task_id, s.chosen), False) for s in selections]
    random_ok = []
    for s in selections:
        mine = [ok for (task, _), ok in passed.items() if task == s.task_id]
        random_ok.append(sum(mine) / len(mine) if mine else 0.0)
    n = max(len(selections), 1)
    return {
        "problems": [s.to_dict() for s in selections],
        "selected_pass_at_1": sum(chosen_ok) / n,
        "random_pass_at_1": sum(random_ok) / n,
    }
