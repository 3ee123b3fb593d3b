"""Drafting: turn a file's touchpoints into a plan a person can review.

``draft(path_or_source)`` picks a drafter: ``"rules"`` (offline, the default),
``"llm"`` (a model refines the offline draft: Anthropic, or an OpenAI-compatible
endpoint with ``AUTOMOCK_LLM=openai``; falls back to it on any failure) or ``"auto"``
(the person's standing choice: ``AUTOMOCK_DRAFTER``, else ``drafter`` under
``[tool.automock]`` in pyproject.toml, else ``rules``; a key alone never uploads).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from automock.analysis.model import Touchpoint
from automock.errors import InputError
from automock.plan.model import DEFAULT_SEED, Plan

__all__ = [
    "DRAFTERS",
    "display_path",
    "draft",
    "draft_with_warnings",
    "text_and_path",
    "touchpoints_of",
]

DRAFTERS = ("rules", "llm", "auto")


def display_path(path: str | os.PathLike[str]) -> str:
    """``path`` relative to the working directory when it is inside it (POSIX form)."""
    resolved = Path(path).resolve()
    try:
        return resolved.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def text_and_path(source_path_or_text: str | os.PathLike[str]) -> tuple[str, str | None]:
    """``(source text, display path or None)``: a path is read, anything else is source."""
    text = source_path_or_text
    is_path = isinstance(text, os.PathLike) or (
        "\n" not in text
        and text.endswith(".py")
        and (Path(text).is_file() or not any(c in text for c in " ()=:;\t"))
    )
    if not is_path:
        return str(source_path_or_text), None
    path = Path(source_path_or_text)
    from automock._source import read_source

    try:
        return read_source(path), display_path(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file; pass a Python file to draft a plan for") from None


def touchpoints_of(source: str, path: str | None) -> tuple[Touchpoint, ...]:
    """The scanner's touchpoints of ``source``; a syntax error is one-line bad input."""
    from automock.analysis.scanner import scan_source

    name = path or "<string>"
    result = scan_source(source, name)
    if result.error is not None:
        try:  # only on this error path: say it like `automock run` does, once, without scan advice
            compile(source, name, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            line = getattr(exc, "lineno", None)
            msg = getattr(exc, "msg", str(exc))
            where = f"{name}:{line}" if line else name
            raise InputError(f"{where}: syntax error ({msg}); fix the file and retry") from None
        raise InputError(
            result.error if result.error.startswith(name) else f"{name}: {result.error}"
        )
    return tuple(result.touchpoints)


def _draft_one(source: str, tps: tuple[Touchpoint, ...], path: str | None, seed: int) -> Plan:
    from automock.drafting.rules import draft_rules

    try:
        return draft_rules(source, tps, path=path, seed=seed)
    except SyntaxError as exc:
        raise InputError(
            f"{path or '<string>'}:{exc.lineno}: syntax error ({exc.msg}); fix the source first"
        ) from None


def draft_with_warnings(
    source_path_or_text: str | os.PathLike[str],
    *,
    drafter: str = "rules",
    touchpoints: Sequence[Touchpoint] | None = None,
    seed: int = DEFAULT_SEED,
    offline: bool = False,
    path: str | None = None,
    llm: Any = None,
) -> tuple[Plan, list[str]]:
    """Like :func:`draft`, returning the warnings (LLM fallbacks) instead of emitting them.

    A path with no ``touchpoints`` given drafts the whole program: the file and
    the project modules it imports (:mod:`automock.drafting.project`).
    """
    if drafter not in DRAFTERS:
        raise InputError(f"unknown drafter {drafter!r}; expected one of {', '.join(DRAFTERS)}")
    source, found_path = text_and_path(source_path_or_text)
    path = path or found_path
    if drafter == "auto" and not offline:
        from automock._drafter import chosen_drafter

        drafter = chosen_drafter()
    use_llm = drafter == "llm"
    notes: list[str] = []
    if touchpoints is None and found_path is not None:  # a file: the program is its project
        touchpoints_of(source, path)  # the entry's own errors, said once as bad input
        from automock.drafting.project import draft_project

        plan, project = draft_project(Path(source_path_or_text), seed=seed, shown=path)
        notes.extend(project.notes)
        tps = project.touchpoints
        if len(project.hashes) > 1 and use_llm and not offline:
            notes.append(
                f"{path}: the LLM drafter refines one file at a time; the "
                f"{len(project.hashes)} modules of this program were drafted by the rules"
            )
            return plan, notes
    else:
        tps = tuple(touchpoints) if touchpoints is not None else touchpoints_of(source, path)
        plan = _draft_one(source, tps, path, seed)
    if not use_llm or offline:
        return plan, notes
    from automock.drafting.llm import LLMDrafter

    engine = llm if llm is not None else LLMDrafter()
    refined: Plan
    refined, more = engine.refine(source, tps, plan)
    return refined, [*notes, *more, *getattr(engine, "notes", [])]


def draft(
    source_path_or_text: str | os.PathLike[str],
    *,
    drafter: str = "rules",
    touchpoints: Sequence[Touchpoint] | None = None,
    seed: int = DEFAULT_SEED,
    offline: bool = False,
) -> Plan:
    """Draft a plan for a file (path) or a source string.

    LLM fallbacks are reported as :class:`UserWarning` and the offline draft is
    returned; the call never hangs on the network.
    """
    plan, notes = draft_with_warnings(
        source_path_or_text, drafter=drafter, touchpoints=touchpoints, seed=seed, offline=offline
    )
    for note in notes:
        warnings.warn(note, UserWarning, stacklevel=2)
    return plan
