"""What a sandboxed run produced: one :class:`RunOutcome` per run, a :class:`RunSet` for all.

Frozen dataclasses that serialise to JSON (``--json``); the whole report, with
the static scan and the plan, is :class:`automock.report.RunReport`. ``status``
is a :class:`~automock.sandbox.child.status.Status`; the report's ``exit_code`` is the
program's own unless the sandbox ended it (see :func:`~automock.sandbox.child.status.exit_code_for`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from automock._serialize import JsonMixin
from automock.runtime.events import Access
from automock.sandbox.child.status import Status
from automock.sandbox.kernel.isolation import LayerStatus
from automock.sandbox.run.witness import Witness

__all__ = ["RunOutcome", "RunSet", "kernel_dict", "run_dict"]


@dataclass(frozen=True, slots=True)
class RunOutcome(JsonMixin):
    """One run of the program in the sandbox.

    ``exit_code`` is the code ``automock run`` uses (the program's own, or
    124/125/126/5); ``returncode`` is the raw child status (negative = signal).
    ``exception`` names an uncaught exception as ``"Type: message"``. ``start``
    says how the child began: ``"fork"`` of the warm ``automock`` command, or
    ``"spawn"`` of a fresh interpreter (see :mod:`automock.sandbox.run.forked`).

    ``layers`` are what the parent observed from outside (the ``runtime`` layer, in the
    program's own process, is the sandbox's word before the program started, labelled);
    ``accesses``, ``exception`` and ``setup_seconds`` are the program's own report
    (its process writes them), used only when it agrees with the exit status;
    ``report_problem`` says why that report was unusable ("" when it was not). ``kernel`` is
    what the parent read from the kernel's counters (network attempts, tasks), and whether
    they contradict the program's accesses (:mod:`automock.sandbox.run.witness`).
    """

    exit_code: int
    status: Status
    stdout: str
    stderr: str
    returncode: int
    accesses: tuple[Access, ...] = ()
    exception: str | None = None
    truncated: bool = False
    seconds: float = 0.0
    setup_seconds: float = 0.0
    layers: tuple[LayerStatus, ...] = ()
    detail: str = ""
    start: str = "spawn"
    report_problem: str = ""
    kernel: Witness = field(default_factory=Witness)
    # a trial run's observations (automock.runtime.observations): the program's word, which
    # steers the drafting loop and nothing else; not in the JSON report
    observations: Mapping[str, Any] = field(
        default_factory=dict, compare=False, metadata={"exclude_json": True}
    )


@dataclass(frozen=True, slots=True)
class RunSet:
    """Every run of one ``automock run`` and whether they agree.

    ``deterministic`` is ``None`` for a single run, else whether every run gave
    the same stdout, stderr and exit code; ``diff`` is a unified diff of the
    first divergence.
    """

    runs: tuple[RunOutcome, ...]
    diff: str = ""

    @property
    def first(self) -> RunOutcome:
        return self.runs[0]

    @property
    def deterministic(self) -> bool | None:
        return None if len(self.runs) < 2 else not self.diff

    @property
    def report_problem(self) -> str:
        """Why the runs' own reports were unusable, each run named when there are several."""
        several = len(self.runs) > 1
        return "; ".join(
            f"run {i}: {r.report_problem}" if several else r.report_problem
            for i, r in enumerate(self.runs, start=1)
            if r.report_problem
        )

    @property
    def hidden(self) -> str:
        """What the kernel saw that the runs' own reports left out, each run named when there
        are several ("" when nothing was hidden)."""
        several = len(self.runs) > 1
        return "; ".join(
            f"run {i}: {r.kernel.hidden}" if several else r.kernel.hidden
            for i, r in enumerate(self.runs, start=1)
            if r.kernel.hidden
        )

    @property
    def accesses(self) -> tuple[Access, ...]:
        """The accesses of every run, each once, in first-seen order."""
        seen: list[Access] = []
        for run in self.runs:
            seen += [a for a in run.accesses if a not in seen]
        return tuple(seen)


def run_dict(run: RunOutcome) -> dict[str, Any]:
    """One run as ``automock run --json`` shows it (seconds rounded)."""
    return {
        "exit_code": run.exit_code,
        "status": run.status,
        "returncode": run.returncode,
        "exception": run.exception,
        "truncated": run.truncated,
        "seconds": round(run.seconds, 4),
        "setup_seconds": round(run.setup_seconds, 4),
        "detail": run.detail,
        "start": run.start,
        "report_problem": run.report_problem,
        "kernel": kernel_dict(run.kernel),
        "stdout": run.stdout,
        "stderr": run.stderr,
    }


def kernel_dict(seen: Witness) -> dict[str, Any]:
    """The kernel's counts of a run as JSON shows them (observed by the parent)."""
    return {
        "network": dict(seen.network) if seen.network is not None else None,
        "network_attempts": seen.attempts if seen.network is not None else None,
        "network_note": seen.network_note,
        "tasks": seen.tasks,
        "tasks_at_start": seen.tasks_at_start,
        "program_starts": seen.starts,
        "process_forks": seen.forks,
        "starts_note": seen.starts_note,
        "hidden": seen.hidden,
    }
