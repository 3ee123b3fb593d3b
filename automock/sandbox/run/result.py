"""What a sandboxed run produced: one :class:`RunOutcome` per run, one :class:`RunReport` overall.

Both are frozen dataclasses that serialise to JSON (``--json``). ``status``
is a :class:`~automock.sandbox.child.status.Status`; the report's ``exit_code`` is the
program's own unless the sandbox ended it (see :func:`~automock.sandbox.child.status.exit_code_for`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from automock._serialize import JsonMixin
from automock.analysis.model import Touchpoint
from automock.runtime.events import Access
from automock.sandbox.child.status import Status
from automock.sandbox.kernel.isolation import LayerStatus

__all__ = ["RunOutcome", "RunReport"]


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
    ``report_problem`` says why that report was unusable ("" when it was not).
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


@dataclass(frozen=True, slots=True)
class RunReport(JsonMixin):
    """The whole ``automock run``: static touchpoints, runtime accesses, verdict over N runs.

    ``stdout``/``stderr``/``exit_code``/``status`` are those of the first run;
    ``deterministic`` is ``None`` for a single run, else whether every run
    gave the same stdout, stderr and exit code; ``diff`` is a unified diff of
    the first divergence. ``timings`` holds seconds (scan, plan, runs, total).

    ``exit_code``/``status`` come from the kernel's exit status and the parent's own
    deadline; ``layers`` from the parent's observation of the sandbox before the program
    ran. ``accesses``/``unmocked`` are the program's own account (``accesses_source``
    ``"program"`` in JSON): diagnostics, not proof, and no exit code depends on them.
    ``report_problem`` says why a run's report was unusable ("" when none was).
    """

    file: str
    exit_code: int
    status: Status
    stdout: str
    stderr: str
    touchpoints: tuple[Touchpoint, ...] = ()
    accesses: tuple[Access, ...] = ()
    unmocked: tuple[Access, ...] = ()
    layers: tuple[LayerStatus, ...] = ()
    runs: tuple[RunOutcome, ...] = ()
    deterministic: bool | None = None
    diff: str = ""
    timings: Mapping[str, float] = field(default_factory=dict)
    seed: int = 0
    plan: str = ""
    detail: str = ""
    report_problem: str = ""

    @property
    def ok(self) -> bool:
        return self.status == Status.PASSED and self.deterministic is not False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "file": self.file,
            "exit_code": self.exit_code,
            "status": self.status,
            "detail": self.detail,
            "seed": self.seed,
            "plan": self.plan,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "touchpoints": [t.to_dict() for t in self.touchpoints],
            "accesses": [a.to_dict() for a in self.accesses],
            "unmocked": [a.to_dict() for a in self.unmocked],
            "accesses_source": "program",
            "report_problem": self.report_problem,
            "layers": [layer.to_dict() for layer in self.layers],
            "runs": [_run_dict(r) for r in self.runs],
            "deterministic": self.deterministic,
            "diff": self.diff,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }
        return data

    def render(self) -> str:
        """The human report printed on stderr after the program's output."""
        lines = [f"── automock run {self.file} (seed {self.seed}, plan: {self.plan or 'default'})"]
        if self.touchpoints:
            lines.append(f"touchpoints found statically: {len(self.touchpoints)}")
            lines += [f"  {t.line}:{t.col} {t.kind:<11} {t.api}" for t in self.touchpoints]
        else:
            lines.append("touchpoints found statically: none")
        mocked = [a for a in self.accesses if a.mocked]
        counts = f"{len(mocked)} mocked, {len(self.unmocked)} unmocked"
        lines.append(f"accesses at runtime, reported by the program: {counts}")
        if self.report_problem and self.report_problem not in self.detail:
            lines.append(f"  the program's report was unusable: {_line(self.report_problem)}")
        lines += [_line(f"  {a.kind:<11} {a.api} {a.target}".rstrip()) for a in mocked]
        for access in self.unmocked:
            lines.append(_line(f"  UNMOCKED {access.kind} {access.api} {access.target}".rstrip()))
            if access.fix:
                lines.append(_line(f"    fix: {access.fix}"))
        lines.append("isolation (observed by automock from outside the sandbox):")
        for layer in self.layers:
            mark = "on " if layer.active else "OFF"
            lines.append(_line(f"  [{mark}] {layer.name:<10} {layer.detail}"))
        status = f"status: {self.status}, exit code {self.exit_code}"
        lines.append(_line(status + (f" ({self.detail})" if self.detail else "")))
        if self.deterministic is not None:
            verdict = "deterministic" if self.deterministic else "NOT deterministic"
            lines.append(f"verdict over {len(self.runs)} runs: {verdict}")
            if self.diff:
                lines += ["  " + line for line in self.diff.splitlines()]
        timing = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in self.timings.items())
        lines.append(f"timings: {timing}")
        return "\n".join(lines)


def _line(text: str) -> str:
    """``text`` on one line: control characters (a forged report line) shown escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _run_dict(run: RunOutcome) -> dict[str, Any]:
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
        "stdout": run.stdout,
        "stderr": run.stderr,
    }
