"""``automock draft FILE...``: write ``fixtures/<stem>.automock.json`` for each file.

Exit codes: 0 written; 2 bad input (missing file, syntax error); 3 a plan
could not be written (hand-edited without ``--force``, unwritable directory).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from automock.drafting import DRAFTERS, draft_with_warnings
from automock.errors import InputError
from automock.pipeline import plan_path_for
from automock.plan.io import render_plan, save_plan
from automock.plan.locate import project_root

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="Python file(s) to draft a plan for"
    )
    parser.add_argument(
        "--drafter",
        choices=DRAFTERS,
        default="auto",
        help="rules: offline heuristics; llm: Anthropic refines the offline draft; "
        "auto (default): llm when ANTHROPIC_API_KEY is set and --offline is not given",
    )
    parser.add_argument(
        "--out",
        default="fixtures",
        metavar="DIR",
        help="directory for plan files (default: fixtures/)",
    )
    parser.add_argument(
        "--force", action="store_true", help="overwrite a plan even if it was edited by hand"
    )
    parser.add_argument("--offline", action="store_true", help="never call a remote model")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed recorded in the plan (default: 0)"
    )
    parser.add_argument(
        "--stdout", action="store_true", help="print the plan instead of writing it"
    )


def run(args: argparse.Namespace) -> int:
    for name in args.files:
        source = Path(name)
        if not source.is_file():
            raise InputError(f"{source}: no such file; pass a Python file to draft a plan for")
        plan, notes = draft_with_warnings(
            source, drafter=args.drafter, seed=args.seed, offline=args.offline
        )
        for note in notes:
            print(f"automock: warning: {note}", file=sys.stderr)
        if args.stdout:
            sys.stdout.write(render_plan(plan))
            continue
        path = plan_path_for(source, args.out)
        target = save_plan(plan, path, force=args.force, beneath=project_root(source, path))
        guessed = sum(len(e.guessed) for e in plan.entries)
        print(
            f"wrote {target} ({len(plan.entries)} entries, drafter {plan.drafter}"
            f"{f', {guessed} guessed values to review' if guessed else ''})"
        )
    return 0
