"""The pipeline: from a source file to a report (locate plan -> load or draft -> stale check
-> scan -> run).

:mod:`automock.pipeline.plans` finds, loads or drafts the plan a source runs with;
:mod:`automock.pipeline.run` scans the source and runs it in the sandbox under that plan
(:func:`~automock.pipeline.run.run_file`). The CLI, :func:`automock.prepare`, the pytest
plugin and batch all take their plans from here; the sandbox only ever receives a
:class:`~automock.plan.model.Plan`.
"""

from __future__ import annotations

from automock.pipeline.plans import (
    PLAN_DIR,
    PLAN_SUFFIX,
    LoadedPlan,
    StaleEntry,
    changed_modules,
    existing_plan,
    load_or_draft,
    located_plan,
    new_plan_dir,
    plan_candidates,
    plan_file,
    plan_for_run,
    plan_path_for,
    stale_entries,
)

__all__ = [
    "PLAN_DIR",
    "PLAN_SUFFIX",
    "LoadedPlan",
    "StaleEntry",
    "changed_modules",
    "existing_plan",
    "load_or_draft",
    "located_plan",
    "new_plan_dir",
    "plan_candidates",
    "plan_file",
    "plan_for_run",
    "plan_path_for",
    "stale_entries",
]
