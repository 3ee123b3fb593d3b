"""One plan per entry point: the entry script and every project module it imports.

:func:`draft_project` scans the project (:func:`automock.analysis.follow.scan_project`),
drafts each module with touchpoints by the same offline rules as a single file
(:func:`automock.drafting.rules.draft_rules`, with that module's own source),
and merges the drafts into one plan: each entry names its module, and
``modules`` records the sha256 of every project module.

:func:`redraft_changed` brings an existing plan up to date module by module:
only the entries of modules whose content changed (or that the project newly
imports, or no longer does) are re-drafted; every other entry, hand edits
included, is kept as it is, and so are the plan's global settings.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from automock.analysis.follow import scan_project
from automock.analysis.model import Touchpoint
from automock.drafting.project_flow import passed_literals, returned_paths
from automock.drafting.rules import draft_rules
from automock.errors import InputError
from automock.plan.io import text_sha256
from automock.plan.model import DEFAULT_SEED, Plan, PlanEntry

__all__ = ["ProjectDraft", "Redraft", "draft_project", "recorded_modules", "redraft_changed"]


@dataclass(frozen=True, slots=True)
class ProjectDraft:
    """Every module's fresh draft: entries and env by module path, the hashes, the touchpoints."""

    entry_rel: str
    hashes: Mapping[str, str]
    entries: Mapping[str, tuple[PlanEntry, ...]]
    env: Mapping[str, str]
    touchpoints: tuple[Touchpoint, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Redraft:
    """A plan brought up to date, and what changed: re-drafted, added and dropped modules."""

    plan: Plan
    changed: tuple[str, ...]
    replaced: int  # entries of changed modules that were dropped for fresh ones

    @property
    def up_to_date(self) -> bool:
        return not self.changed


def _read(path: Path) -> str:
    from automock._source import read_source

    return read_source(path)


def _draft_modules(entry: Path, seed: int, shown: str) -> ProjectDraft:
    project = scan_project(entry)
    by_module = project.by_module()
    texts = {
        m.rel: _read(m.path) for m in project.project.modules if by_module[m.rel].error is None
    }
    listed = [m for m in project.project.modules if m.rel in texts]
    passed = passed_literals([(m, texts[m.rel]) for m in listed])
    returned = returned_paths(
        [
            (
                m,
                texts[m.rel],
                frozenset(t.line for t in by_module[m.rel].touchpoints if t.kind == "network"),
            )
            for m in listed
        ]
    )
    hashes: dict[str, str] = {}
    entries: dict[str, tuple[PlanEntry, ...]] = {}
    env: dict[str, str] = {}
    notes: list[str] = []
    found: list[Touchpoint] = []
    for module in project.project.modules:
        scan = by_module[module.rel]
        if scan.error is not None:
            if module is project.project.entry:
                raise InputError(scan.error)
            notes.append(f"{module.rel}: not drafted ({scan.error})")
            continue
        text = texts[module.rel]
        hashes[module.rel] = text_sha256(text)
        if not scan.touchpoints:
            continue
        try:
            drafted = draft_rules(
                text,
                scan.touchpoints,
                path=module.rel,
                seed=seed,
                outside=passed.get(module.rel),
                returned=returned.get(module.rel),
            )
        except SyntaxError as exc:
            notes.append(f"{module.rel}:{exc.lineno}: not drafted (syntax error: {exc.msg})")
            continue
        entries[module.rel] = tuple(replace(e, module=module.rel) for e in drafted.entries)
        for name, value in drafted.env.items():
            env.setdefault(name, value)
        found.extend(scan.touchpoints)
    return ProjectDraft(project.project.entry.rel, hashes, entries, env, tuple(found), tuple(notes))


def draft_project(
    entry: str | os.PathLike[str], *, seed: int = DEFAULT_SEED, shown: str | None = None
) -> tuple[Plan, ProjectDraft]:
    """A fresh plan for the program that starts at ``entry`` (offline rules).

    ``shown`` is the entry's path as the plan records it (``source.path``).
    """
    path = Path(entry)
    label = shown or os.fspath(entry)
    draft = _draft_modules(path, seed, label)
    plan = Plan(
        source_path=label,
        source_sha256=draft.hashes.get(draft.entry_rel),
        modules=dict(draft.hashes),
        drafter="rules",
        seed=seed,
        env=dict(draft.env),
        entries=_ordered(draft.entries, draft.hashes),
    )
    return plan, draft


def _ordered(
    entries: Mapping[str, Iterable[PlanEntry]], modules: Iterable[str]
) -> tuple[PlanEntry, ...]:
    """Entries module by module (the plan's module order), each by line."""
    out: list[PlanEntry] = []
    for rel in modules:
        out.extend(sorted(entries.get(rel, ()), key=lambda e: (e.line, e.col, e.api)))
    return tuple(out)


def recorded_modules(plan: Plan, entry_rel: str) -> dict[str, str]:
    """The module hashes a plan records (a version 1 plan: only its entry, from ``source``)."""
    if plan.modules:
        return dict(plan.modules)
    return {entry_rel: plan.source_sha256} if plan.source_sha256 else {}


def redraft_changed(
    plan: Plan, entry: str | os.PathLike[str], *, shown: str | None = None
) -> Redraft:
    """``plan`` with the entries of every changed module re-drafted and all others kept."""
    fresh, draft = draft_project(entry, seed=plan.seed, shown=shown or plan.source_path)
    old = recorded_modules(plan, draft.entry_rel)
    changed = tuple(
        rel for rel in dict.fromkeys([*draft.hashes, *old]) if old.get(rel) != draft.hashes.get(rel)
    )
    if not changed:
        return Redraft(plan, (), 0)
    kept: dict[str, list[PlanEntry]] = {}
    replaced = 0
    for e in plan.entries:
        rel = e.module or draft.entry_rel
        if rel in changed:
            replaced += 1
        else:
            kept.setdefault(rel, []).append(e)
    for rel in changed:
        if rel in draft.entries:
            kept[rel] = list(draft.entries[rel])
    env = dict(plan.env)
    for name, value in fresh.env.items():
        env.setdefault(name, value)
    updated = replace(
        plan,
        source_path=fresh.source_path,
        source_sha256=fresh.source_sha256,
        modules=dict(draft.hashes),
        env=env,
        entries=_ordered(kept, [*draft.hashes, *(r for r in kept if r not in draft.hashes)]),
    )
    return Redraft(updated, changed, replaced)
