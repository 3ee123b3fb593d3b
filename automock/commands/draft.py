"""``automock draft FILE...``: write ``fixtures/<stem>.automock.json`` for each file.

A FILE is an entry point: its plan covers the project modules it imports too.
A plan edited by hand is never replaced without ``--force``; when some of its
modules changed, only their entries are re-drafted and every other entry is
kept. A new draft goes through the drafting loop first (``--draft-rounds``, docs/plans.md).
Each FILE is drafted in turn: one that fails (missing, a directory, not Python
source, a syntax error, a plan that cannot be written) is reported on its own
line and the others are still drafted. Exit codes: 0 every plan written; else
the first failure's: 2 bad input, 3 a plan could not be written (hand-edited
and up to date without ``--force``, unwritable directory).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from automock._display import visible
from automock._source import not_python_reason
from automock.commands._drafting import add_draft_rounds
from automock.drafting import DRAFTERS, draft_with_warnings
from automock.errors import AutomockError, InputError, PlanError, describe_missing
from automock.pipeline import plan_path_for
from automock.plan.io import is_hand_edited, load_plan, render_plan, save_plan
from automock.plan.locate import save_base
from automock.plan.model import Plan

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="Python file(s) to draft a plan for"
    )
    parser.add_argument(
        "--drafter",
        choices=DRAFTERS,
        default="auto",
        help="rules: offline heuristics; llm: a model refines the offline draft (AUTOMOCK_LLM: "
        "anthropic, default, or openai for any OpenAI-compatible server); "
        "auto (default): AUTOMOCK_DRAFTER, else drafter under [tool.automock] in pyproject.toml, "
        "else rules (an API key alone never uploads the source)",
    )
    parser.add_argument(
        "--out",
        default="fixtures",
        metavar="DIR",
        help="directory for plan files (default: fixtures/)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="re-draft every entry even of a plan edited by hand (its hand edits are dropped)",
    )
    parser.add_argument("--offline", action="store_true", help="never call a remote model")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed recorded in the plan (default: 0)"
    )
    parser.add_argument(
        "--stdout", action="store_true", help="print the plan instead of writing it"
    )
    add_draft_rounds(parser, "")


def run(args: argparse.Namespace) -> int:
    """Draft each file in turn; a file that fails is reported and the rest are still drafted.

    The exit code is 0 when every file got its plan, else the first failure's code (2 bad
    input, 3 a plan not written), after a last line naming how many failed."""
    failed: list[tuple[str, AutomockError]] = []
    for name in args.files:
        try:
            _draft_one(args, Path(name))
        except AutomockError as exc:
            if len(args.files) == 1:
                raise
            print(f"automock: error: {exc}", file=sys.stderr)
            failed.append((name, exc))
    if not failed:
        return 0
    names = ", ".join(visible(name) for name, _ in failed)
    print(
        f"automock: drafted {len(args.files) - len(failed)} of {len(args.files)} files; "
        f"{len(failed)} failed: {names}",
        file=sys.stderr,
    )
    return failed[0][1].exit_code


def _draft_one(args: argparse.Namespace, source: Path) -> None:
    if not source.is_file():
        raise InputError(f"{source}: {_why_not_a_file(source)}")
    if (reason := not_python_reason(source)) is not None:
        raise InputError(f"{source}: {reason}")
    plan, notes = draft_with_warnings(
        source, drafter=args.drafter, seed=args.seed, offline=args.offline
    )
    for note in notes:
        print(f"automock: warning: {note}", file=sys.stderr)
    target = plan_path_for(source, args.out)
    kept = is_hand_edited(target) and not args.force and not args.stdout  # only updated
    if args.draft_rounds and not kept:
        plan = _loop(source, plan, args.draft_rounds, llm=plan.drafter == "llm")
    if args.stdout:
        sys.stdout.write(render_plan(plan))
        return
    if is_hand_edited(target) and not args.force:
        _update(source, target)
        return
    if is_hand_edited(target):
        print(
            f"automock: warning: {target}: replaced a plan edited by hand (--force): "
            "its hand edits are gone",
            file=sys.stderr,
        )
    target = save_plan(plan, target, force=args.force, beneath=save_base(source, target))
    guessed = sum(len(e.guessed) for e in plan.entries)
    print(
        f"wrote {target} ({len(plan.entries)} entries, drafter {plan.drafter}"
        f"{f', {guessed} guessed values to review' if guessed else ''})"
    )


def _why_not_a_file(source: Path) -> str:
    why = describe_missing(source)
    if why == "is a directory":
        return (
            "is a directory; draft names program files: pass its entry points "
            f"(automock draft {source}/*.py), or scan it first (automock scan {source})"
        )
    return f"{why}; pass a Python file to draft a plan for"


def _loop(source: Path, plan: Plan, rounds: int, *, llm: bool) -> Plan:
    """The drafting loop on a new draft (docs/plans.md), what it did said on stderr; a plan
    the model drafted is repaired by the model first."""
    from automock.commands._drafting import loop_model
    from automock.pipeline.drafting_loop import refine_draft, repairable

    if not repairable(plan):
        return plan
    result = refine_draft(source, plan, rounds=rounds, llm=loop_model("llm" if llm else "rules"))
    for line in result.notes():
        print(f"automock: {line}", file=sys.stderr)
    return result.plan


def _update(source: Path, target: Path) -> None:
    """A hand-edited plan: re-draft only the entries of the modules that changed."""
    from automock.drafting.project import redraft_changed

    plan = load_plan(target)
    if not plan.modules and plan.source_sha256 is None:
        raise PlanError(
            f"{target}: edited by hand and records no module hashes, so what changed is "
            "unknown; not overwriting (--force re-drafts every entry and drops your hand edits)"
        )
    update = redraft_changed(plan, source)
    if update.up_to_date:
        raise PlanError(
            f"{target}: edited by hand and no module of {source} changed since; not "
            "overwriting (--force re-drafts every entry and drops your hand edits)"
        )
    save_plan(update.plan, target, force=True)
    print(
        f"updated {target}: re-drafted the entries of {', '.join(update.changed)} "
        f"({update.replaced} old entries of those modules replaced); every other entry "
        "is kept as it was"
    )
