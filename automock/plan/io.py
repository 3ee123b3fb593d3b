"""Reading and writing plan files: atomic, validated, and careful with hand edits.

A plan written by automock carries a ``"generated"`` fingerprint: the sha256
of its own canonical JSON (without that field). When the file's content no
longer matches its fingerprint, a person edited it, and :func:`save_plan`
refuses to overwrite it unless ``force=True``. A plan also records the sha256
of the source it was drafted from (:func:`source_changed`); re-scanning a
changed source for stale entries needs the scanner, so it lives in
:mod:`automock.pipeline` with the rest of "locate, load or draft, check".
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automock._atomic import atomic_write_text, read_beneath
from automock._serialize import JsonMixin
from automock._sha256 import sha256
from automock.errors import PlanError
from automock.plan.locate import PLAN_SUFFIX, plan_file
from automock.plan.model import Plan, PlanEntry

__all__ = [
    "PLAN_SUFFIX",
    "StaleEntry",
    "fingerprint",
    "is_hand_edited",
    "load_plan",
    "plan_path_for",
    "render_plan",
    "save_plan",
    "source_changed",
    "text_sha256",
]


@dataclass(frozen=True, slots=True)
class StaleEntry(JsonMixin):
    """A plan entry that no longer matches the (changed) source, and why."""

    entry: PlanEntry
    reason: str


def plan_path_for(
    source_path: str | os.PathLike[str], out_dir: str | os.PathLike[str] = "fixtures"
) -> Path:
    """``<out_dir>/<stem>.automock.json`` for a source file (:func:`~automock.plan.locate.plan_file`)."""
    return Path(plan_file(source_path, out_dir))


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
        return _edited(target.read_bytes())
    except OSError:
        return True


def _edited(content: bytes) -> bool:
    try:
        data = json.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return True
    if not isinstance(data, dict) or not isinstance(data.get("generated"), str):
        return True
    return bool(data["generated"] != fingerprint(data))


_MAX_PLAN_BYTES = 64 * 1024 * 1024


def save_plan(
    plan: Plan,
    path: str | os.PathLike[str],
    *,
    force: bool = False,
    beneath: str | os.PathLike[str] | None = None,
) -> Path:
    """Write ``plan`` atomically; never replace a hand-edited plan unless ``force``.

    ``beneath``: the project directory the path was found from; nothing on the way from it
    may be a symbolic link (:func:`automock._atomic.atomic_write_bytes`)."""
    target = Path(path)
    if beneath is not None:
        old = read_beneath(target, beneath, what="plan", limit=_MAX_PLAN_BYTES)
        edited = old is not None and _edited(old)
    else:
        edited = is_hand_edited(target)
    if not force and edited:
        raise PlanError(
            f"{target}: edited by hand since automock wrote it; not overwriting "
            "(pass --force / force=True to replace it, or delete the file)"
        )
    return atomic_write_text(target, render_plan(plan), what="plan", beneath=beneath)


def text_sha256(text: str) -> str:
    """The hash a plan records for a source or module: sha256 of its text as UTF-8."""
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def source_changed(plan: Plan, source_text: str) -> bool:
    """True when the plan records a source hash and ``source_text`` no longer has it."""
    return plan.source_sha256 is not None and plan.source_sha256 != text_sha256(source_text)
