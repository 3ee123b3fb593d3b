"""``automock run FILE --seeds 0,1,2``: which output depends on chance.

:func:`run_seeds` runs the file once per seed (each run a
:func:`~automock.pipeline.run.run_file` under the same plan) and compares the
outputs line by line (:func:`automock.properties.seeds.compare_outputs`). A
seed-dependent line gets the properties it keeps under every seed, offered as
plan entries (``properties`` in the plan) named after the random call the scan
found that explains them (``random.shuffle`` for a permutation).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from automock._display import visible
from automock._serialize import JsonMixin
from automock.analysis.model import Touchpoint
from automock.plan.model import Plan
from automock.plan.parts import PropertySpec
from automock.properties.seeds import SeedLine, compare_outputs
from automock.report import RunReport

__all__ = ["SeedsReport", "run_seeds"]

# the random calls whose results each property describes, best first
_EXPLAINS = {
    "permutation": ("shuffle", "permutation", "sample"),
    "sorted": ("sorted", "sample", "choices"),
    "subset": ("sample", "choices", "choice"),
    "bounds": ("random", "uniform", "randint", "randrange", "gauss", "normalvariate", "time"),
}


@dataclass(frozen=True, slots=True)
class SeedsReport(JsonMixin):
    """One run per seed, compared: ``lines`` of stdout, ``suggested`` plan entries."""

    file: str
    seeds: tuple[int, ...]
    lines: tuple[SeedLine, ...]
    exit_codes: tuple[int, ...]
    stderr_differs: bool
    suggested: tuple[PropertySpec, ...]

    @property
    def exit_code(self) -> int:
        """The first non-zero exit code of the runs, else 0."""
        return next((code for code in self.exit_codes if code), 0)

    def render(self) -> str:
        dependent = sum(1 for line in self.lines if line.seed_dependent)
        seeds = ",".join(str(s) for s in self.seeds)
        out = [
            f"── automock run {self.file} --seeds {seeds}: {dependent} of "
            f"{len(self.lines)} output lines depend on the seed"
        ]
        for line in self.lines:
            mark = "SEED" if line.seed_dependent else "same"
            shown = line.values if line.seed_dependent else line.values[:1]
            text = " | ".join("<missing>" if v is None else visible(v) for v in shown)
            hint = f"   suggest: {', '.join(line.suggestions)}" if line.suggestions else ""
            out.append(f"  {line.number:>3} {mark}  {text}{hint}")
        if self.stderr_differs:
            out.append("  stderr depends on the seed")
        if len(set(self.exit_codes)) > 1:
            out.append(f"  exit codes differ: {list(self.exit_codes)}")
        if self.suggested:
            out.append('suggested plan entries (add to the plan\'s "properties"):')
            out += [f"  {json.dumps(spec.to_dict())}" for spec in self.suggested]
        return "\n".join(out)


def _function_for(prop: str, touchpoints: Sequence[Touchpoint], number: int) -> str:
    """The random call that explains ``prop`` (the scan's), else ``line N`` of the output."""
    names = {t.api.rsplit(".", 1)[-1]: t.api for t in touchpoints if t.kind in ("random", "time")}
    for candidate in _EXPLAINS.get(prop, ()):
        if candidate in names:
            return candidate
    return f"line {number}"


def _suggestions(
    lines: Sequence[SeedLine], touchpoints: Sequence[Touchpoint]
) -> tuple[PropertySpec, ...]:
    specs = []
    for line in lines:
        for prop in line.suggestions:
            function = _function_for(prop, touchpoints, line.number)
            args: dict[str, Any] = {"output_line": line.number, **line.args}
            specs.append(PropertySpec(function=function, property=prop, args=args))
    return tuple(specs)


def run_seeds(
    path: str | os.PathLike[str], plan: Plan | None, seeds: Sequence[int], **kwargs: Any
) -> SeedsReport:
    """Run ``path`` once per seed (``kwargs`` as for :func:`run_file`) and compare the outputs."""
    from automock.pipeline.run import run_file

    reports: list[RunReport] = [run_file(path, plan, seed=seed, **kwargs) for seed in seeds]
    lines = compare_outputs([r.stdout for r in reports])
    return SeedsReport(
        file=str(path),
        seeds=tuple(seeds),
        lines=lines,
        exit_codes=tuple(r.exit_code for r in reports),
        stderr_differs=len({r.stderr for r in reports}) > 1,
        suggested=_suggestions(lines, reports[0].touchpoints),
    )
