"""Reading and writing plan files: atomic, validated, and careful with hand edits.

A plan written by automock carries a ``"generated"`` fingerprint: the sha256
of its own canonical JSON (without that field). When the file's content no
longer matches its fingerprint, a person edited it, and :func:`save_plan`
refuses to overwrite it unless ``force=True``. A plan also records the sha256
of the source it was drafted from; :func:`stale_entries` re-scans a changed
source and reports the entries that no longer match a touchpoint.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automock._atomic import atomic_write_text
from automock._serialize import JsonMixin
from automock._sha256 import sha256
from automock.errors import InputError, PlanError
from automock.plan.model import Plan, PlanEntry

__all__ = [
    "PLAN_SUFFIX",
    "StaleEntry",
    "fingerprint",
    "is_hand_edited",
    "load_plan",
    "plan_for_run",
    "plan_path_for",
    "render_plan",
    "save_plan",
    "source_changed",
    "stale_entries",
]

PLAN_SUFFIX = ".automock.json"


@dataclass(frozen=True, slots=True)
class StaleEntry(JsonMixin):
    """A plan entry that no longer matches the (changed) source, and why."""

    entry: PlanEntry
    reason: str


def plan_path_for(
    source_path: str | os.PathLike[str], out_dir: str | os.PathLike[str] = "fixtures"
) -> Path:
    """``<out_dir>/<stem>.automock.json`` for a source file."""
    return Path(out_dir) / f"{Path(source_path).stem}{PLAN_SUFFIX}"


def fingerprint(data: dict[str, Any]) -> str:
    """``sha256:<hex>`` of the plan's canonical JSON, ignoring ``generated`` itself."""
    body = {k: v for k, v in data.items() if k != "generated"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + sha256(canonical.encode("utf-8")).hexdigest()


def render_plan(plan: Plan) -> str:
    """The exact text automock writes for ``plan`` (with its fingerprint)."""
    data = plan.to_dict()
    data["generated"] = fingerprint(data)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PlanError(
            f"{path}: no such plan file; create it with: automock draft SOURCE.py"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PlanError(f"{path}: cannot read the plan ({exc})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PlanError(
            f"{path}:{exc.lineno}:{exc.colno}: invalid JSON ({exc.msg}); "
            "fix the syntax, or delete the file and run automock draft again"
        ) from None


def load_plan(path: str | os.PathLike[str]) -> Plan:
    """Load and validate a plan; errors name the file, the field and the expected form."""
    target = Path(path)
    data = _read_json(target)
    try:
        return Plan.from_dict(data)
    except PlanError as exc:
        raise PlanError(f"{target}: {exc}") from None


def is_hand_edited(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` exists and its content is not what automock last wrote."""
    target = Path(path)
    if not target.exists():
        return False
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return True
    if not isinstance(data, dict) or not isinstance(data.get("generated"), str):
        return True
    return bool(data["generated"] != fingerprint(data))


def save_plan(plan: Plan, path: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Write ``plan`` atomically; never replace a hand-edited plan unless ``force``."""
    target = Path(path)
    if not force and is_hand_edited(target):
        raise PlanError(
            f"{target}: edited by hand since automock wrote it; not overwriting "
            "(pass --force / force=True to replace it, or delete the file)"
        )
    return atomic_write_text(target, render_plan(plan), what="plan")


def _sha256(text: str) -> str:
    return sha256(text.encode("utf-8")).hexdigest()


def source_changed(plan: Plan, source_text: str) -> bool:
    """True when the plan records a source hash and ``source_text`` no longer has it."""
    return plan.source_sha256 is not None and plan.source_sha256 != _sha256(source_text)


def stale_entries(
    plan: Plan, source_text: str, *, path: str | None = None
) -> tuple[StaleEntry, ...]:
    """Entries whose (line, api) no longer match a touchpoint of the changed source.

    An unchanged source (same sha256) has no stale entries and is not re-scanned.
    """
    if not source_changed(plan, source_text):
        return ()
    from automock.analysis.scanner import scan_source

    scan = scan_source(source_text, path or plan.source_path or "<string>")
    if scan.error is not None:
        return tuple(
            StaleEntry(e, f"the source no longer parses ({scan.error})") for e in plan.entries
        )
    at = {(t.line, t.api) for t in scan.touchpoints}
    lines_by_api: dict[str, list[int]] = {}
    kinds_by_line: dict[int, set[str]] = {}
    for t in scan.touchpoints:
        lines_by_api.setdefault(t.api, []).append(t.line)
        kinds_by_line.setdefault(t.line, set()).add(t.kind)
    stale = []
    for entry in plan.entries:
        if (entry.line, entry.api) in at or entry.kind in kinds_by_line.get(entry.line, set()):
            continue
        moved = lines_by_api.get(entry.api)
        where = f"line {entry.line}: {entry.api}"
        if moved:
            lines = ", ".join(str(n) for n in sorted(moved))
            stale.append(StaleEntry(entry, f"{where} moved to line {lines}"))
        else:
            stale.append(StaleEntry(entry, f"{where} is no longer in the source"))
    return tuple(stale)


def plan_for_run(
    source_path: str | os.PathLike[str],
    *,
    seed: int | None = None,
    out_dir: str | os.PathLike[str] = "fixtures",
    save: bool = True,
    plan_file: str | os.PathLike[str] | None = None,
) -> tuple[Plan, list[str]]:
    """The plan ``automock run`` uses: loaded when present, else drafted (rules) and saved.

    ``plan_file`` names the plan explicitly (``--plan``); by default it is
    ``<out_dir>/<stem>.automock.json``. Returns the plan and warnings: a
    changed source and each stale entry, or where a new plan was written.
    """
    from automock.drafting import display_path, read_source

    source_file = Path(source_path)
    if not source_file.is_file():
        raise InputError(f"{source_file}: no such file; pass a Python file to run")
    source, _ = read_source(source_file)
    target = Path(plan_file) if plan_file is not None else plan_path_for(source_file, out_dir)
    notes: list[str] = []
    if target.exists():
        plan = load_plan(target)
        if source_changed(plan, source):
            notes.append(
                f"{target}: {display_path(source_file)} changed since the plan was drafted; "
                "review it or re-draft with: automock draft --force"
            )
            notes.extend(f"{target}: stale entry: {s.reason}" for s in stale_entries(plan, source))
    else:
        from automock.drafting import draft_with_warnings

        plan, drafted_notes = draft_with_warnings(source_file, drafter="rules")
        notes.extend(drafted_notes)
        if save:
            save_plan(plan, target)
            notes.append(f"drafted a new plan {target}; review its guessed values")
    if seed is not None:
        plan = plan.with_seed(seed)
    return plan, notes
