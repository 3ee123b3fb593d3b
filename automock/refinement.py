"""Refinement-loop preprocessing: touchpoints, a plan and a deterministic harness in one call.

An LLM refinement loop drafts code, runs it, reads what went wrong and tries
again. :func:`prepare` does the deterministic part once per task::

    prepared = prepare(candidate_source)
    report = prepared.run()                  # sandboxed, mocked, reproducible
    prompt_tail = prepared.feedback(report)  # exit status, output, "add a stub for GET ..."
    report2 = prepared.run(next_candidate)   # same mocks for the next attempt

Every candidate runs under the *same* plan, so differences between attempts
come from the code, not from the clock, the seed or the fake server.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from automock._serialize import JsonMixin
from automock.analysis.model import Touchpoint
from automock.plan.model import DEFAULT_SEED, Plan

if TYPE_CHECKING:  # pragma: no cover
    from automock.report import RunReport

__all__ = ["Prepared", "prepare"]

_TAIL = 2000  # characters of stdout/stderr kept in feedback


@dataclass(frozen=True, slots=True)
class Prepared(JsonMixin):
    """The touchpoints and plan of one source, and a harness that runs code under that plan."""

    source: str
    touchpoints: tuple[Touchpoint, ...]
    plan: Plan
    warnings: tuple[str, ...] = field(default=())

    def run(
        self,
        source: str | None = None,
        *,
        timeout: float = 10.0,
        repeat: int = 1,
        seed: int | None = None,
        args: Sequence[str] = (),
        plan: Plan | None = None,
    ) -> RunReport:
        """Run ``source`` (default: the prepared one) in the sandbox under this plan."""
        from automock.pipeline.run import run_source

        return run_source(
            self.source if source is None else source,
            plan or self.plan,
            timeout=timeout,
            repeat=repeat,
            seed=seed,
            args=tuple(args),
        )

    @staticmethod
    def feedback(report: RunReport) -> str:
        """A compact text for the next prompt: status, output tails and what to mock."""
        lines = [f"exit code {report.exit_code} ({report.status})"]
        if report.deterministic is False:
            lines.append("runs differ:\n" + report.diff[-_TAIL:])
        if report.stdout:
            lines.append("stdout:\n" + report.stdout[-_TAIL:])
        if report.stderr:
            lines.append("stderr:\n" + report.stderr[-_TAIL:])
        for access in report.unmocked:
            fix = f": {access.fix}" if access.fix else ""
            lines.append(f"unmocked {access.kind} access {access.api} {access.target}{fix}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "touchpoints": [t.to_dict() for t in self.touchpoints],
            "plan": self.plan.to_dict(),
            "warnings": list(self.warnings),
        }


def prepare(
    source: str,
    *,
    drafter: str = "rules",
    seed: int = DEFAULT_SEED,
    path: str | None = None,
    offline: bool = False,
) -> Prepared:
    """Scan ``source`` (text, or a path to a ``.py`` file), draft its plan, return the harness.

    A path drafts the whole program: the file and the project modules it
    imports (one plan, as ``automock run`` drafts it); ``touchpoints`` are
    then every module's. ``drafter`` is ``rules`` (offline, default), ``llm`` or ``auto``; LLM
    failures fall back to the offline draft and are listed in ``warnings``.
    """
    from automock.drafting import draft_with_warnings, text_and_path, touchpoints_of

    text, found = text_and_path(source)
    where = path or found
    touchpoints = touchpoints_of(text, where)
    if found is not None:  # a file: the program is its project, drafted as `automock run` does
        from automock.analysis.follow import scan_project

        touchpoints = scan_project(source).result.touchpoints
        plan, notes = draft_with_warnings(
            source, drafter=drafter, seed=seed, offline=offline, path=where
        )
    else:
        plan, notes = draft_with_warnings(
            text, drafter=drafter, touchpoints=touchpoints, seed=seed, offline=offline, path=where
        )
    return Prepared(source=text, touchpoints=touchpoints, plan=plan, warnings=tuple(notes))
