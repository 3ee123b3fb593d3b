"""Where a source file's plan lives: the one rule, ``fixtures/<stem>.automock.json``.

A plan is looked for under ``fixtures/`` of the current directory, then under
``fixtures/`` beside the source (:func:`existing_plan`); a new one is written
under ``fixtures/`` of the current directory when the source is inside it,
else beside the source (:func:`new_plan_dir`). :mod:`automock.pipeline`
publishes these with the rest of the way from a source to its plan.

This module imports nothing but :mod:`os`: the CLI reads a run's plan seed
with it before it restarts with the run's hash seed
(:mod:`automock.commands.restart`), when even ``pathlib`` is not yet
imported. Paths are returned as strings for that reason.

The project is untrusted (docs/security.md, "Threat model: an untrusted project"): a plan
found here is read only when it stays inside the directory it was found from
(:func:`found_from`, :func:`leads_out`), so ``fixtures -> /elsewhere`` or a plan file
that is a link out of the project is never read on the project's word.
"""

from __future__ import annotations

import os

__all__ = [
    "PLAN_DIR",
    "PLAN_SUFFIX",
    "cassette_file",
    "existing_plan",
    "found_from",
    "leads_out",
    "new_plan_dir",
    "plan_candidates",
    "plan_file",
    "save_base",
]

PLAN_SUFFIX = ".automock.json"
PLAN_DIR = "fixtures"


def plan_file(source: str | os.PathLike[str], out_dir: str | os.PathLike[str] = PLAN_DIR) -> str:
    """``<out_dir>/<stem>.automock.json`` for ``source`` (nothing is read)."""
    stem = os.path.splitext(os.path.basename(os.fspath(source)))[0]
    return os.path.join(os.fspath(out_dir), stem + PLAN_SUFFIX)


def plan_candidates(source: str | os.PathLike[str]) -> tuple[str, ...]:
    """Where a plan for ``source`` is looked for, in order: ``fixtures/`` here, then beside it."""
    beside = os.path.join(os.path.dirname(os.fspath(source)), PLAN_DIR)
    here = plan_file(source)
    there = plan_file(source, beside)
    return (here,) if os.path.normpath(there) == os.path.normpath(here) else (here, there)


def existing_plan(source: str | os.PathLike[str]) -> str | None:
    """The first of :func:`plan_candidates` that is a file, or None."""
    return next((path for path in plan_candidates(source) if os.path.isfile(path)), None)


def save_base(source: str | os.PathLike[str], path: str | os.PathLike[str]) -> str | None:
    """The directory the plan file ``path`` of ``source`` must stay inside: the current
    directory when ``path`` is under it (``fixtures/`` here), else the source's directory
    when under that; None for a place outside both (a caller's own choice)."""
    where = os.path.abspath(path)
    for root in (os.getcwd(), os.path.dirname(os.fspath(source))):
        base = os.path.abspath(root)
        if os.path.commonpath([base, where]) == base:
            return base
    return None


def found_from(source: str | os.PathLike[str], path: str) -> str:
    """The directory a plan of :func:`plan_candidates` was found from, which it must stay
    inside: the current directory for ``fixtures/`` here, else the source's directory."""
    if os.path.normpath(path) == os.path.normpath(plan_file(source)):
        return os.getcwd()
    return os.path.dirname(os.path.abspath(os.fspath(source)))


def leads_out(path: str | os.PathLike[str], base: str | os.PathLike[str]) -> str | None:
    """Where ``path`` really is when a symbolic link on the way takes it out of ``base``
    (both resolved), else None."""
    root, real = os.path.realpath(base), os.path.realpath(path)
    return None if os.path.commonpath([root, real]) == root else real


def new_plan_dir(source: str | os.PathLike[str]) -> str:
    """Where a plan drafted for ``source`` is saved: ``fixtures/`` here if it is inside, else beside."""
    cwd = os.path.realpath(os.getcwd())
    real = os.path.realpath(os.fspath(source))
    if os.path.commonpath([cwd, real]) == cwd:
        return PLAN_DIR
    return os.path.join(os.path.dirname(os.fspath(source)), PLAN_DIR)


def cassette_file(cassette: str, plan_path: str | os.PathLike[str]) -> str:
    """Where a plan's (relative) cassette path points: from the directory holding the plan's
    folder (``fixtures/x.cassette.yaml`` beside ``fixtures/x.automock.json``), else from the
    plan's own folder; the first when neither exists (where ``--record`` writes it)."""
    if os.path.isabs(cassette):
        return cassette
    folder = os.path.dirname(os.path.abspath(os.fspath(plan_path)))
    bases = (os.path.dirname(folder), folder)
    found = [os.path.join(b, cassette) for b in bases if os.path.isfile(os.path.join(b, cassette))]
    return found[0] if found else os.path.join(bases[0], cassette)
