"""The report of one ``automock run``: static touchpoints, runtime accesses, verdict over N runs.

A frozen dataclass that serialises to JSON (``--json``) and renders the text
report printed on stderr. The sandbox produces the runs
(:class:`~automock.sandbox.run.result.RunSet`); the pipeline adds what the
static scan found and which plan ran (:func:`automock.pipeline.run.run_file`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from automock import _schemas as schemas
from automock._display import emphasis, report_start, visible
from automock._serialize import JsonMixin
from automock.analysis.model import Touchpoint
from automock.runtime.events import Access
from automock.sandbox.child.status import Status
from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.run.result import RunOutcome, RunSet, kernel_dict, run_dict
from automock.sandbox.run.witness import Witness

__all__ = ["SOURCES", "RunReport"]

# who stands behind each fact of the report: "parent" = automock observed it from outside
# the sandbox (the kernel's exit status, its own deadline, /proc, the cgroup, the network
# namespace's counters); "program" = the program's own process wrote it (diagnostics only)
SOURCES: Mapping[str, str] = {
    "exit_code": "parent",
    "status": "parent",
    "stdout": "parent",
    "stderr": "parent",
    "layers": "parent",
    "kernel": "parent",
    "hidden_accesses": "parent",
    "accesses": "program",
    "unmocked": "program",
    "detail": "parent, quoting the program where its report agrees with the exit status",
}


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
    kernel: Witness = field(default_factory=Witness)
    hidden: str = ""

    @classmethod
    def of(
        cls,
        file: str,
        runs: RunSet,
        touchpoints: tuple[Touchpoint, ...],
        *,
        seed: int,
        plan: str,
        timings: Mapping[str, float],
    ) -> RunReport:
        """The report of ``runs``: the first run's end, every run's accesses, the verdict."""
        one, accesses = runs.first, runs.accesses
        return cls(
            file=file,
            exit_code=one.exit_code,
            status=one.status,
            stdout=one.stdout,
            stderr=one.stderr,
            touchpoints=touchpoints,
            accesses=accesses,
            unmocked=tuple(a for a in accesses if not a.mocked),
            layers=one.layers,
            runs=runs.runs,
            deterministic=runs.deterministic,
            diff=runs.diff,
            timings=timings,
            seed=seed,
            plan=plan,
            detail=one.detail,
            report_problem=runs.report_problem,
            kernel=one.kernel,
            hidden=runs.hidden,
        )

    @property
    def ok(self) -> bool:
        return self.status == Status.PASSED and self.deterministic is not False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "schema": schemas.RUN,
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
            "kernel": kernel_dict(self.kernel),
            "hidden_accesses": self.hidden,
            "sources": SOURCES,
            "layers": [layer.to_dict() for layer in self.layers],
            "runs": [run_dict(r) for r in self.runs],
            "deterministic": self.deterministic,
            "diff": self.diff,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }
        return data

    def render(self, *, terminal: bool = False) -> str:
        """The human report printed on stderr after the program's output; every text the
        program produced in it is :func:`~automock._display.visible` (one line, escapes shown).
        On a ``terminal`` it starts with an attribute reset and its status line is bold."""
        head = f"── automock run {self.file} (seed {self.seed}, plan: {self.plan or 'default'})"
        lines = [report_start(terminal) + visible(head)]
        if self.touchpoints:
            lines.append(f"touchpoints found statically: {len(self.touchpoints)}")
            lines += [f"  {t.position} {t.kind:<11} {t.api}" for t in self.touchpoints]
        else:
            lines.append("touchpoints found statically: none")
        mocked = [a for a in self.accesses if a.mocked]
        counts = f"{len(mocked)} mocked, {len(self.unmocked)} unmocked"
        lines.append(f"accesses at runtime, reported by the program: {counts}")
        if self.report_problem and self.report_problem not in self.detail:
            lines.append(f"  the program's report was unusable: {visible(self.report_problem)}")
        lines += [visible(_access_line(a)) for a in mocked]
        for access in self.unmocked:
            lines.append(visible(f"  UNMOCKED {access.kind} {access.api} {access.target}".rstrip()))
            if access.fix:
                lines.append(visible(f"    fix: {access.fix}"))
        lines.append(f"kernel counts (observed by automock from outside): {self.kernel.describe()}")
        if self.hidden:
            lines.append(f"  HIDDEN {visible(self.hidden)}")
        lines.append("isolation (observed by automock from outside the sandbox):")
        for layer in self.layers:
            mark = "on " if layer.active else "OFF"
            lines.append(visible(f"  [{mark}] {layer.name:<10} {layer.detail}"))
        status = f"status: {self.status}, exit code {self.exit_code}"
        status = visible(status + (f" ({self.detail})" if self.detail else ""))
        lines.append(emphasis(status, terminal))
        if self.deterministic is not None:
            verdict = "deterministic" if self.deterministic else "NOT deterministic"
            lines.append(f"verdict over {len(self.runs)} runs: {verdict}")
            if self.diff:  # the program's output: each line shown escaped
                lines += ["  " + visible(line) for line in self.diff.split("\n") if line]
        timing = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in self.timings.items())
        lines.append(f"timings: {timing}")
        return "\n".join(lines)


def _access_line(access: Access) -> str:
    """``  network     requests GET https://… → stub #3 (GET prefix https://…; plan …)``."""
    text = f"  {access.kind:<11} {access.api} {access.target}".rstrip()
    return f"{text} → {access.served_by}" if access.served_by else text
