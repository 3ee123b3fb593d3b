"""What a sandboxed run produced: one :class:`RunOutcome` per run, a :class:`RunSet` for all.

Frozen dataclasses that serialise to JSON (``--json``); the whole report, with
the static scan and the plan, is :class:`automock.report.RunReport`. ``status``
is a :class:`~automock.sandbox.child.status.Status`; the report's ``exit_code`` is the
program's own unless the sandbox ended it (see :func:`~automock.sandbox.child.status.exit_code_for`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from automock._serialize import JsonMixin
from automock.runtime.events import Access
from automock.sandbox.child.status import Status
from automock.sandbox.kernel.isolation import LayerStatus

__all__ = ["RunOutcome", "RunSet", "run_dict"]


@dataclass(frozen=True, slots=True)
class RunOutcome(JsonMixin):
    """One run of the program in the sandbox.

    ``exit_code`` is the code ``automock run`` uses (the program's own, or
    124/125/126/5); ``returncode`` is the raw child status (negative = signal).
    ``exception`` names an uncaught exception as ``"Type: message"``. ``start``
    says how the child began: ``"fork"`` of the warm ``automock`` command, or
    ``"spawn"`` of a fresh interpreter (see :mod:`automock.sandbox.run.forked`).
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
        "stdout": run.stdout,
        "stderr": run.stderr,
    }
