"""``--draft-rounds``: the drafting loop's flag, and the loop on a plan drafted for a command.

The loop itself is :mod:`automock.pipeline.drafting_loop` (docs/plans.md, "Drafting as a
loop"); here are only the flag and what ``automock run`` hands it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from automock.pipeline import LoadedPlan
    from automock.pipeline.drafting_loop import LoopResult

__all__ = [
    "add_draft_rounds",
    "add_run_drafter",
    "drafting_loop",
    "loop_model",
]

MAX_ROUNDS = 10


def _rounds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value <= MAX_ROUNDS:
        raise argparse.ArgumentTypeError(
            f"expected a number of rounds from 0 to {MAX_ROUNDS}, got {value}"
        )
    return value


def add_draft_rounds(parser: argparse.ArgumentParser, when: str) -> None:
    """``--draft-rounds N`` (default 3, 0 turns the loop off); ``when`` opens its help."""
    parser.add_argument(
        "--draft-rounds",
        type=_rounds,
        default=3,
        metavar="N",
        help=f"{when}trial-run the draft in the sandbox and repair what the run shows, up to "
        "N times, keeping the best plan (default 3; 0 turns the loop off)",
    )


def add_run_drafter(parser: argparse.ArgumentParser) -> None:
    """``automock run --drafter rules|llm`` (default: ``AUTOMOCK_DRAFTER``, else rules)."""
    parser.add_argument(
        "--drafter",
        choices=("rules", "llm"),
        default=None,
        help="who repairs a plan drafted for this run in the drafting loop: rules (offline, "
        "default) or llm (the model sees each trial run's failure; uploads the source); "
        "default from AUTOMOCK_DRAFTER, else drafter under [tool.automock] in pyproject.toml",
    )


def loop_model(choice: str | None) -> Any:
    """The LLM drafter for the loop when the person chose it (``--drafter llm``,
    ``AUTOMOCK_DRAFTER=llm`` or ``drafter = "llm"`` under ``[tool.automock]`` in
    pyproject.toml), else None; a key in the environment alone never uploads."""
    from automock._drafter import chosen_drafter

    chosen = chosen_drafter(choice)
    if chosen == "rules":
        return None
    from automock.drafting.llm import LLMDrafter

    return LLMDrafter()


def drafting_loop(
    args: argparse.Namespace, file: Path, located: LoadedPlan, extra: list[str]
) -> tuple[LoadedPlan, LoopResult | None]:
    """A plan drafted for ``automock run``: trial-run and repair it (``--draft-rounds``).
    Not with the real network or a cassette: those runs show what the program needs."""
    real = args.record or args.allow_network or args.cassette is not None
    if not located.drafted or args.draft_rounds == 0 or real:
        return located, None
    from automock.pipeline.drafting_loop import refine_located, repairable

    if not repairable(located.plan):
        return located, None
    from automock.sandbox.kernel.isolation import Limits

    return refine_located(
        located,
        file,
        rounds=args.draft_rounds,
        save=not args.no_save,
        args=extra,
        timeout=args.timeout,
        limits=Limits(cpu_seconds=int(args.timeout) + 1, memory_mb=args.memory_mb),
        readable=args.read,
        stable_addresses=not args.no_stable_addresses,
        seed=args.seed,
        llm=loop_model(args.drafter),
    )
