"""File discovery for directory scans, honouring common excludes and .gitignore."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from automock.errors import InputError

__all__ = ["DEFAULT_EXCLUDES", "discover"]

DEFAULT_EXCLUDES: tuple[str, ...] = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    "env",
    ".env",
    "__pycache__",
    "build",
    "dist",
    "node_modules",
    ".tox",
    ".nox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".automock-cache",
    "site-packages",
    "*.egg-info",
)

_SOURCE_SUFFIXES = (".py", ".pyw")


def _gitignore_patterns(directory: Path) -> list[str]:
    """Simple lines of ``directory/.gitignore``: no negation, comments or blanks."""
    try:
        text = (directory / ".gitignore").read_text("utf-8", "replace")
    except OSError:
        return []
    out = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "!")):
            continue
        out.append(line.strip("/") if line.endswith("/") else line.lstrip("/"))
    return [p for p in out if p]


def _excluded(name: str, rel: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(rel, p) for p in patterns)


def _walk_dir(root: Path, excludes: Sequence[str]) -> list[Path]:
    found: list[Path] = []
    base_patterns = [*DEFAULT_EXCLUDES, *excludes, *_gitignore_patterns(root)]
    for dirpath, dirnames, filenames in os.walk(root):
        current = Path(dirpath)
        patterns = base_patterns
        if current != root:
            patterns = [*base_patterns, *_gitignore_patterns(current)]
        rel_dir = current.relative_to(root)
        dirnames[:] = sorted(
            d for d in dirnames if not _excluded(d, (rel_dir / d).as_posix(), patterns)
        )
        for name in sorted(filenames):
            if name.endswith(_SOURCE_SUFFIXES) and not _excluded(
                name, (rel_dir / name).as_posix(), patterns
            ):
                found.append(current / name)
    return found


def discover(
    paths: Sequence[str | os.PathLike[str]], *, excludes: Sequence[str] = ()
) -> list[Path]:
    """Python files under ``paths`` in a stable order; a missing path raises :class:`InputError`.

    Files named explicitly are always included (whatever their suffix);
    directories are walked recursively, skipping ``DEFAULT_EXCLUDES``,
    ``excludes`` and simple ``.gitignore`` patterns.
    """
    out: list[Path] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            candidates = _walk_dir(path, excludes)
        elif path.exists():
            candidates = [path]
        else:
            raise InputError(f"{os.fspath(raw)}: no such file or directory; check the path")
        for candidate in candidates:
            key = candidate.resolve()
            if key not in seen:
                seen.add(key)
                out.append(candidate)
    return out
