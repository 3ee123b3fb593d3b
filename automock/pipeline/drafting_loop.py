"""Drafting as a loop: draft, trial run in the sandbox, observations, repair; the best kept.

A drafted plan is run once in the sandbox, with the run's own limits, as a *trial*: the
runtime notes what the program read from its stub bodies and missed
(:mod:`automock.runtime.observations`). The rules repair the plan
(:mod:`automock.drafting.repair`) and the program runs again, for at most ``rounds``
repairs. The best plan seen is kept: a clean run (exit 0, no read of stub data missed)
over one that exited 0 but missed reads, over a failure, over a timeout; among equals the
earlier. A program no plan can serve (a missing module, a file that is not there, a
failure in its own code with no stub data involved) is said so, not looped on.

What a trial run observed is the program's word: it only steers drafting. The verdict of
``automock run`` still comes from the run that follows, with the kept plan.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automock._serialize import JsonMixin
from automock.pipeline.plans import LoadedPlan
from automock.plan.model import Plan
from automock.sandbox.kernel.isolation import Limits

__all__ = [
    "DEFAULT_ROUNDS",
    "LoopResult",
    "LoopRound",
    "refine_draft",
    "refine_located",
    "repairable",
]

DEFAULT_ROUNDS = 3
# exceptions no plan can cure: the program's environment or its own code
_UNSERVABLE = ("ModuleNotFoundError", "ImportError", "FileNotFoundError", "SyntaxError")
_RANK = {"clean": 4, "missed reads": 3, "failed": 2, "unservable": 1, "timeout": 0}


@dataclass(frozen=True, slots=True)
class LoopRound(JsonMixin):
    """One trial run: its ``round`` (0 is the first draft), how it ``ended`` (``clean``,
    ``missed reads``, ``failed``, ``timeout``, ``unservable``), its exit code, the
    exception and where, the reads that missed, and the repairs made after it."""

    round: int
    ended: str
    exit_code: int
    exception: str = ""
    where: str = ""
    missed: tuple[str, ...] = ()
    repairs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LoopResult(JsonMixin):
    """The plan kept (``plan``, from round ``kept``), every round, and why the loop stopped."""

    plan: Plan
    rounds: tuple[LoopRound, ...]
    kept: int
    stopped: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": [r.to_dict() for r in self.rounds],
            "kept": self.kept,
            "stopped": self.stopped,
        }

    def notes(self) -> list[str]:
        """What the loop did, one line per round, then what it kept and why it stopped."""
        lines = []
        for r in self.rounds:
            detail = f": {r.exception}" if r.exception else ""
            where = f" at {r.where}" if r.where else ""
            missed = f"; missed: {'; '.join(r.missed[:3])}" if r.missed else ""
            fixed = f"; repaired {len(r.repairs)}: {'; '.join(r.repairs[:3])}" if r.repairs else ""
            lines.append(f"drafting loop round {r.round}: {r.ended}{detail}{where}{missed}{fixed}")
        lines.append(f"drafting loop: kept the plan of round {self.kept} ({self.stopped})")
        return lines


def repairable(plan: Plan) -> bool:
    """Whether the rules have anything to repair in ``plan`` (an HTTP stub, or an HTTP call
    whose URL a trial run shows): else no trial."""
    from automock.drafting.rules import url_unknown

    return any(e.strategy == "stub_http" or url_unknown(e) for e in plan.entries)


def _where(observations: Mapping[str, Any]) -> str:
    exception = observations.get("exception")
    frames = exception.get("frames") if isinstance(exception, dict) else None
    if not isinstance(frames, list) or not frames or not isinstance(frames[-1], dict):
        return ""
    last = frames[-1]
    return f"{last.get('file')}:{last.get('line')} in {last.get('function')}"


def _missed(observations: Mapping[str, Any]) -> tuple[str, ...]:
    """The reads of stub data that missed, in words (comparisons are not misses)."""
    from automock.drafting.repair import describe

    misses = observations.get("misses")
    if not isinstance(misses, list):
        return ()
    return tuple(
        f"entries[{m.get('entry')}] {describe(m)}"[:300]
        for m in misses[:200]
        if isinstance(m, dict) and m.get("kind") != "compare" and describe(m)
    )[:50]


def _refused(accesses: Sequence[Any]) -> tuple[str, ...]:
    """Requests no stub served that the program caught (a retry loop, ``except
    RequestException``): it read nothing from them, so a run that exits 0 is not clean."""
    return tuple(
        f"the request {a.target} matched no stub"
        for a in accesses
        if a.kind == "network" and not a.mocked and "stub_http entry" in a.fix
    )[:20]


def _ended(run: Any, missed: Sequence[str]) -> str:
    from automock.sandbox.child.status import Status

    if run.status == Status.TIMEOUT:
        return "timeout"
    if run.exit_code == 0:
        return "missed reads" if missed else "clean"
    name = (run.exception or "").split(":", 1)[0]
    if name in _UNSERVABLE and not missed:
        return "unservable"
    return "failed"


def _trial(path: Path, plan: Plan, options: Mapping[str, Any]) -> tuple[LoopRound, Any]:
    from automock.pipeline.run import run_file

    report = run_file(path, plan, repeat=1, observe=True, plan_label="trial", **options)
    run = report.runs[0]
    observations = run.observations
    missed = _missed(observations) + _refused(run.accesses)
    outcome = LoopRound(
        round=0,
        ended=_ended(run, missed),
        exit_code=run.exit_code,
        exception=run.exception or "",
        where=_where(observations),
        missed=missed,
    )
    return outcome, run


def refine_draft(
    path: str | os.PathLike[str],
    plan: Plan,
    *,
    rounds: int = DEFAULT_ROUNDS,
    llm: Any = None,
    args: Sequence[str] = (),
    timeout: float = 30.0,
    limits: Limits | None = None,
    readable: Sequence[str | os.PathLike[str]] = (),
    stable_addresses: bool = True,
    seed: int | None = None,
) -> LoopResult:
    """Trial-run ``plan`` and repair it up to ``rounds`` times; the best plan seen.

    ``llm`` (an :class:`~automock.drafting.llm.LLMDrafter`): the model is asked first in
    each round, in a follow-up turn carrying what the run showed; the rules repair when
    its answer changes nothing. A plan that did not change is not tried again."""
    from dataclasses import replace

    options = {
        "args": args,
        "timeout": timeout,
        "limits": limits,
        "readable": readable,
        "stable_addresses": stable_addresses,
        "seed": seed,
    }
    seen: list[LoopRound] = []
    best: tuple[int, int, Plan] | None = None  # (rank, round, plan)
    stopped = f"{rounds} repair rounds used"
    last: tuple[dict[str, Any], LoopRound, Any] | None = None
    for number in range(rounds + 1):
        if last is not None and last[0] == plan.to_dict():  # unchanged: it runs the same
            outcome, run = last[1], last[2]
        else:
            outcome, run = _trial(Path(path), plan, options)
            last = (plan.to_dict(), outcome, run)
        outcome = replace(outcome, round=number, repairs=())
        rank = _RANK[outcome.ended]
        if best is None or rank > best[0]:
            best = (rank, number, plan)
        if outcome.ended in ("clean", "unservable") or number == rounds:
            seen.append(outcome)
            if outcome.ended in ("clean", "unservable"):
                stopped = _stop_reason(outcome)
            break
        plan, repairs = _repair(Path(path), plan, outcome, run, number + 1, llm)
        seen.append(replace(outcome, repairs=repairs))
        if not repairs:
            stopped = "no repair found for what the run showed"
            break
    assert best is not None
    return LoopResult(best[2], tuple(seen), best[1], stopped)


def _failure(outcome: LoopRound, run: Any) -> str:
    """What a trial run showed, for the model: exception and where, missed reads, requests
    no stub matched (with the pasteable fix), the end of stderr."""
    lines = [f"exit code {outcome.exit_code} ({outcome.ended})"]
    if outcome.exception:
        lines.append(f"exception: {outcome.exception} at {outcome.where or '?'}")
    lines += [f"missed read: {m}" for m in outcome.missed]
    lines += [f"unmatched request: {a.target}: {a.fix}" for a in run.accesses if not a.mocked]
    tail = run.stderr.strip().splitlines()[-8:]
    if tail:
        lines.append("end of stderr:\n" + "\n".join(tail))
    return "\n".join(lines)


def _repair(
    path: Path, plan: Plan, outcome: LoopRound, run: Any, number: int, llm: Any
) -> tuple[Plan, tuple[str, ...]]:
    """The next plan and what changed: the model's answer if it changed the plan, else
    the rules' repairs."""
    from automock.drafting.repair import repair_plan
    from automock.drafting.repair_json_text import json_for_text
    from automock.drafting.repair_links import absolute_links
    from automock.drafting.repair_requests import stubs_for_unmatched
    from automock.drafting.repair_xml import xml_children

    said: tuple[str, ...] = ()
    if llm is not None:
        failure = f"repair round {number} of the drafting loop\n{_failure(outcome, run)}"
        fixed, said = _ask_model(path, plan, failure, number, llm)
        if fixed is not None:
            return fixed, ("the model corrected the plan after the run's failure", *said)
    failure = f"{outcome.exception} at {outcome.where}" if outcome.exception else ""
    repaired, repairs = repair_plan(plan, run.observations, round=number, failure=failure)
    done = tuple(f"{r.pointer}: {r.why}" for r in repairs)
    repaired, added = stubs_for_unmatched(repaired, run.accesses, outcome.where, round=number)
    done += added
    repaired, joined = absolute_links(repaired, outcome.exception, round=number)
    done += joined
    repaired, decoded = json_for_text(repaired, outcome.exception, round=number)
    done += decoded
    repaired, grown = xml_children(repaired, run.observations, round=number)
    done += grown
    if not done and llm is not None:  # ask again next round, with the same failure
        return plan, (*said, "the model's answer changed nothing; no rule applies")
    return repaired, done


def _ask_model(
    path: Path, plan: Plan, failure: str, number: int, llm: Any
) -> tuple[Plan | None, tuple[str, ...]]:
    """The model's corrected plan (None when it changed nothing or failed), with provenance
    on each entry it changed, and what it said."""
    from dataclasses import replace

    from automock._source import read_source
    from automock.analysis.scanner import scan_source

    source = read_source(path)
    touchpoints = scan_source(source, str(path)).touchpoints
    answer, warnings = llm.repair(source, touchpoints, plan, failure)
    if warnings or answer.to_dict()["entries"] == plan.to_dict()["entries"]:
        return None, tuple(warnings)
    lines = failure.splitlines()
    why = next((x for x in lines if x.startswith("exception:")), lines[-1] if lines else "")
    entries = []
    for new in answer.entries:
        old = next((e for e in plan.entries if (e.line, e.api) == (new.line, new.api)), None)
        if old is None or old.data != new.data:
            repairs = [*(old.provenance.get("repairs", []) if old else []), f"the model: {why}"]
            provenance = {"drafter": "llm", "round": number, "repairs": repairs}
            body = "/json" if "json" in new.data else "/text" if "text" in new.data else ""
            guessed = (*new.guessed, *([body] if body and body not in new.guessed else []))
            new = replace(new, provenance=provenance, guessed=guessed)
        entries.append(new)
    return replace(answer, entries=tuple(entries)), tuple(getattr(llm, "notes", ()))


def _stop_reason(outcome: LoopRound) -> str:
    if outcome.ended == "clean":
        return "a clean run"
    return (
        f"no plan can serve it: {outcome.exception}"
        f"{f' at {outcome.where}' if outcome.where else ''} fails before or without any stub"
    )


def refine_located(
    located: LoadedPlan, path: str | os.PathLike[str], *, rounds: int, save: bool, **options: Any
) -> tuple[LoadedPlan, LoopResult]:
    """:func:`refine_draft` on a plan just drafted for ``path`` (``located``), the kept plan
    saved where the draft was (when ``save``), with what the loop did in its notes."""
    from dataclasses import replace

    from automock.plan.io import save_plan

    result = refine_draft(path, located.plan, rounds=rounds, **options)
    if save and result.kept > 0:
        save_plan(result.plan, located.path)
    notes = (*located.notes, *result.notes())
    return replace(located, plan=result.plan, notes=notes), result
