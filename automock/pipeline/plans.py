"""Plans: locate the plan of a source, load or draft it, check it against the source.

* **locate**: the one rule for where a plan lives (:mod:`automock.plan.locate`,
  re-exported here): ``fixtures/<stem>.automock.json`` under the current
  directory, then beside the source; a new plan goes under ``fixtures/`` of the
  current directory when the source is inside it, else beside the source.
* **load or draft**: an existing plan is loaded and validated; a missing one is
  drafted by the offline rules drafter and (by default) saved where the
  locator says.
* **stale check**: a loaded plan whose source changed since it was drafted is
  used as is, with a warning per entry that no longer matches a touchpoint of
  the re-scanned source.

:mod:`automock.plan` stays pure data and IO; the parts that need the scanner or
a drafter live here. ``automock run``, ``draft``, ``check`` and the golden plans
use this module; the scanner and the drafters are imported only when a plan is
drafted or a changed source re-scanned.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from automock.errors import InputError, PlanError
from automock.plan.io import (
    StaleEntry,
    load_plan,
    plan_path_for,
    save_plan,
    source_changed,
    text_sha256,
)
from automock.plan.locate import (
    PLAN_DIR,
    PLAN_SUFFIX,
    existing_plan,
    found_from,
    leads_out,
    new_plan_dir,
    plan_candidates,
    plan_file,
    save_base,
)
from automock.plan.model import Plan

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
    "refuse_other_source",
    "stale_entries",
]


@dataclass(frozen=True, slots=True)
class LoadedPlan:
    """The plan a source runs with, where it is (or would be saved), and what to tell the user.

    ``label`` names the plan in a report: its path, or ``drafted (not saved)``.
    ``drafted``: no plan was found, this one was drafted now (the drafting loop may refine it).
    """

    plan: Plan
    path: Path
    label: str
    notes: tuple[str, ...] = ()
    drafted: bool = False


def stale_entries(
    plan: Plan, source_text: str, *, path: str | None = None, module: str | None = None
) -> tuple[StaleEntry, ...]:
    """Entries (of ``module``; by default the entry script's) whose (line, api) no longer match.

    ``source_text`` is that module's current text. An unchanged entry script
    (same sha256) has no stale entries and is not re-scanned.
    """
    if module is None and not source_changed(plan, source_text):
        return ()
    from automock.analysis.scanner import scan_source

    entry_module = next(iter(plan.modules), None)
    wanted = module or entry_module
    mine = [e for e in plan.entries if (e.module or entry_module) == wanted]
    scan = scan_source(source_text, path or plan.source_path or "<string>")
    if scan.error is not None:
        return tuple(StaleEntry(e, f"the source no longer parses ({scan.error})") for e in mine)
    at = {(t.line, t.api) for t in scan.touchpoints}
    lines_by_api: dict[str, list[int]] = {}
    kinds_by_line: dict[int, set[str]] = {}
    for t in scan.touchpoints:
        lines_by_api.setdefault(t.api, []).append(t.line)
        kinds_by_line.setdefault(t.line, set()).add(t.kind)
    stale = []
    for entry in mine:
        if (entry.line, entry.api) in at or entry.kind in kinds_by_line.get(entry.line, set()):
            continue
        moved = lines_by_api.get(entry.api)
        shown = f"{module} " if module and module != entry_module else ""
        where = f"{shown}line {entry.line}: {entry.api}"
        if moved:
            lines = ", ".join(str(n) for n in sorted(moved))
            stale.append(StaleEntry(entry, f"{where} moved to line {lines}"))
        else:
            stale.append(StaleEntry(entry, f"{where} is no longer in the source"))
    return tuple(stale)


def changed_modules(plan: Plan, source_file: Path) -> dict[str, str | None]:
    """Modules whose file differs from the hash the plan records: path -> current text.

    Only the files the plan lists are read (an import of a new module means a
    listed module changed). A listed path that is not a file inside the
    project is never read: the plan comes from the project's directory and is
    untrusted; it counts as changed with no text (``None``).
    """
    from automock._source import read_source
    from automock.analysis.project import project_root

    if not plan.modules:  # a version 1 plan: the entry script only
        entry_text = read_source(source_file)
        return {source_file.name: entry_text} if source_changed(plan, entry_text) else {}
    root = project_root(source_file)
    out: dict[str, str | None] = {}
    for rel, digest in plan.modules.items():
        candidate = root / rel
        text: str | None = None
        try:
            if candidate.resolve().is_relative_to(root) and candidate.is_file():
                text = read_source(candidate)
        except (OSError, ValueError, SyntaxError, LookupError, RuntimeError):  # (a symlink loop)
            text = None
        if text is None or text_sha256(text) != digest:
            out[rel] = text
    return out


def _stale_notes(target: Path, plan: Plan, source_file: Path) -> list[str]:
    """What a run says about a plan some of whose modules changed since it was drafted."""
    changed = changed_modules(plan, source_file)
    if not changed:
        return []
    from automock.drafting import display_path

    shown = display_path(source_file)
    names = ", ".join(changed)
    notes = [
        f"{target}: {names} changed since the plan was drafted; the plan is used as is. "
        f"Re-draft the entries of the changed modules with: automock draft {shown} "
        "(keeps every other entry, hand edits included; --force re-drafts every entry "
        "and drops all hand edits)"
    ]
    for rel, text in changed.items():
        if text is None:
            notes.append(f"{target}: module {rel}: missing or not inside the project")
            continue
        found = stale_entries(plan, text, path=rel, module=rel if plan.modules else None)
        notes.extend(f"{target}: stale entry: {s.reason}" for s in found)
    return notes


def refuse_other_source(plan: Plan, target: Path, source_file: Path) -> None:
    """Refuse a plan drafted for another file (its ``source.path`` names a different file)."""
    if plan.source_path is None or Path(plan.source_path).name == source_file.name:
        return
    raise PlanError(
        f"{target}: source.path is {plan.source_path!r}, a plan for another file, not "
        f"{source_file.name}; pass the plan of {source_file.name}, or draft one with: "
        f"automock draft {source_file}"
    )


def plan_for_run(
    source_path: str | os.PathLike[str],
    *,
    seed: int | None = None,
    out_dir: str | os.PathLike[str] = PLAN_DIR,
    save: bool = True,
    plan_file: str | os.PathLike[str] | None = None,
) -> tuple[Plan, list[str]]:
    """The plan at one path: loaded (with stale warnings) when present, else drafted (rules).

    ``plan_file`` names the plan explicitly; by default it is
    ``<out_dir>/<stem>.automock.json`` (no search: :func:`load_or_draft`
    searches). A drafted plan is saved there when ``save``. Returns the plan
    and warnings: a changed source and each stale entry, or where a new plan
    was written.
    """
    from automock._source import read_source

    source_file = Path(source_path)
    if not source_file.is_file():
        raise InputError(f"{source_file}: no such file; pass a Python file to run")
    read_source(source_file)  # unreadable or not Python source: bad input, said at once
    target = Path(plan_file) if plan_file is not None else plan_path_for(source_file, out_dir)
    notes: list[str] = []
    if target.exists():
        plan = load_plan(target)
        refuse_other_source(plan, target, source_file)
        notes.extend(_stale_notes(target, plan, source_file))
    else:
        from automock.drafting import draft_with_warnings

        plan, drafted_notes = draft_with_warnings(source_file, drafter="rules")
        notes.extend(drafted_notes)
        if save:  # never through a link the project ships (fixtures -> /elsewhere)
            save_plan(plan, target, beneath=save_base(source_file, target))
            notes.append(f"drafted a new plan {target}; review its guessed values")
    if seed is not None:
        plan = plan.with_seed(seed)
    return plan, notes


def located_plan(source_path: str | os.PathLike[str]) -> str | None:
    """:func:`existing_plan`, refused (a ``PlanError``) when a symbolic link takes it out of
    the project it was found in: the project's word never makes automock read a file
    outside it (``fixtures -> /elsewhere``, ``fixtures/app.automock.json -> /root/...``)."""
    found = existing_plan(source_path)
    if found is None:
        return None
    outside = leads_out(found, found_from(source_path, found))
    if outside is not None:
        raise PlanError(
            f"{found}: is a symbolic link out of the project (to {outside}); automock does "
            "not read files outside the project on its word (copy the plan into the "
            "project, or name it yourself with --plan)"
        )
    return found


def load_or_draft(
    source_path: str | os.PathLike[str],
    plan_file: str | os.PathLike[str] | None = None,
    *,
    save: bool = True,
    seed: int | None = None,
) -> LoadedPlan:
    """The plan ``source_path`` runs with: ``plan_file``, else the located one, else a draft.

    With no ``plan_file``, :func:`existing_plan` is loaded if there is one;
    else the rules drafter drafts a plan and, when ``save``, writes it under
    :func:`new_plan_dir` so a later run (and a person) can use it.
    """
    source = Path(source_path)
    if plan_file is not None:
        explicit = Path(plan_file)
        if not explicit.is_file():
            problem = "not a regular file" if explicit.exists() else "no such file"
            raise InputError(
                f"plan_file={str(explicit)!r}: {problem}; write one with `automock draft {source}`"
            )
        plan, notes = plan_for_run(source, plan_file=explicit, save=False, seed=seed)
        return LoadedPlan(plan, explicit, str(plan_file), tuple(notes))
    found = located_plan(source)
    if found is not None:
        plan, notes = plan_for_run(source, plan_file=found, save=False, seed=seed)
        return LoadedPlan(plan, Path(found), found, tuple(notes))
    target = plan_path_for(source, new_plan_dir(source))
    drafted = not target.exists()
    plan, notes = plan_for_run(source, plan_file=target, save=save, seed=seed)
    label = str(target) if save else "drafted (not saved)"
    return LoadedPlan(plan, target, label, tuple(notes), drafted)
