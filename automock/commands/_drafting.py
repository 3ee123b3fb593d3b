"""``--draft-rounds``: the drafting loop's flag, and the loop on a plan drafted for a command.

The loop itself is :mod:`automock.pipeline.drafting_loop` (docs/plans.md, "Drafting as a
loop"); here are only the flag and what ``automock run`` hands it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from automock.pipeline import LoadedPlan
    from automock.pipeline.drafting_loop import LoopResult

__all__ = ["add_draft_rounds", "drafting_loop"]

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
    )
