"""File discovery for directory scans, honouring common excludes and .gitignore."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

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


class _Ignores:
    """The ``.gitignore`` files from the walk's root down to one directory, as git reads them.

    Each file's patterns are relative to its directory (pathspec's gitignore
    matching: ``/anchored``, ``dir/``, ``**``, ``!negation``); a deeper file's match
    overrides a shallower one's, and within a file the last match wins.
    """

    def __init__(self, levels: tuple[tuple[str, Any], ...] = ()) -> None:
        self.levels = levels  # (the directory's path from the root + "/", or "", its patterns)

    def below(self, directory: Path, rel: str) -> _Ignores:
        """These ignores plus ``directory/.gitignore`` (``rel``: its posix path from the root)."""
        try:
            text = (directory / ".gitignore").read_text("utf-8", "replace")
        except OSError:
            return self
        import pathspec

        spec = pathspec.GitIgnoreSpec.from_lines(text.splitlines())
        return _Ignores((*self.levels, (f"{rel}/" if rel else "", spec)))

    def ignored(self, rel: str, is_dir: bool) -> bool:
        """Whether git would ignore ``rel`` (a posix path from the root)."""
        verdict = False
        for base, spec in self.levels:
            include = spec.check_file(rel[len(base) :] + ("/" if is_dir else "")).include
            if include is not None:
                verdict = include
        return verdict


def _excluded(name: str, rel: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(rel, p) for p in patterns)


def _skipped(name: str, rel: str, is_dir: bool, patterns: Sequence[str], ignores: _Ignores) -> bool:
    return _excluded(name, rel, patterns) or ignores.ignored(rel, is_dir)


def _walk_dir(root: Path, excludes: Sequence[str]) -> list[Path]:
    found: list[Path] = []
    patterns = [*DEFAULT_EXCLUDES, *excludes]
    ignores: dict[str, _Ignores] = {}
    real_root = os.path.realpath(root)
    for dirpath, dirnames, filenames in os.walk(root):
        current = Path(dirpath)
        rel_dir = current.relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        parent = ignores.get(rel_dir.rpartition("/")[0], _Ignores()) if rel_dir else _Ignores()
        here = ignores[rel_dir] = parent.below(current, rel_dir)
        prefix = f"{rel_dir}/" if rel_dir else ""
        dirnames[:] = sorted(
            d for d in dirnames if not _skipped(d, prefix + d, True, patterns, here)
        )
        found += [
            current / name
            for name in sorted(filenames)
            if name.endswith(_SOURCE_SUFFIXES)
            and not _skipped(name, prefix + name, False, patterns, here)
            and _inside(current / name, real_root)
        ]
    return found


def _inside(path: Path, real_root: str) -> bool:
    """Whether ``path`` (a file found in the walk) really is under the walked directory: a link
    the project ships to a file outside it (``app.py -> /root/notes.py``) is not read."""
    real = os.path.realpath(path)
    return os.path.commonpath([real_root, real]) == real_root


def discover(
    paths: Sequence[str | os.PathLike[str]], *, excludes: Sequence[str] = ()
) -> list[Path]:
    """Python files under ``paths`` in a stable order; a missing path raises :class:`InputError`.

    Files named explicitly are always included (whatever their suffix);
    directories are walked recursively, skipping ``DEFAULT_EXCLUDES``,
    ``excludes``, what ``.gitignore`` files ignore (negation included) and links to files
    outside the directory (the project's links are not followed out of it).
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
