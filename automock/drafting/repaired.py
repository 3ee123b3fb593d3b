"""What a rules repair records on the entry it changed: the why, the round, the pointer.

Every repair by rules (:mod:`automock.drafting.repair` and its siblings) leaves the same
trace on an entry: its ``provenance`` says the rules drafter changed it in this round and
lists each change with its reason, and ``guessed`` names the changed pointer for a person
to check.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from automock.plan.model import PlanEntry

__all__ = ["noted"]


def noted(entry: PlanEntry, pointer: str, why: str, round: int, **changes: Any) -> PlanEntry:
    """``entry`` (with ``changes``, e.g. ``data=``) recording a repair of ``pointer``."""
    repairs = [*entry.provenance.get("repairs", []), f"{pointer}: {why}"]
    provenance = {**entry.provenance, "drafter": "rules", "round": round, "repairs": repairs}
    guessed = (*entry.guessed, *([pointer] if pointer not in entry.guessed else []))
    return replace(entry, guessed=guessed, provenance=provenance, **changes)
