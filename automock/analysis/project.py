"""A program is a project: its entry script and the project modules it imports.

:func:`discover_project` starts from an entry script and follows every import
that resolves to a file inside the project, the way Python would find it when
the script runs (``python ENTRY.py`` puts the script's directory first on
``sys.path``): the script's directory, the directory above the package the
script belongs to, and a ``src/`` folder in either. Imports that resolve
nowhere inside the project (the standard library, site-packages) are left
alone. A symlink that leads out of the project is not followed: the parent
never reads a file outside the project on the project's word.

Only ``ast`` is used here (cheap); the touchpoints themselves come from the
scanner (:mod:`automock.analysis.scanner`) and the cross-module flow
(:mod:`automock.analysis.flow`).
"""

from __future__ import annotations

import ast
import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from automock._source import decode_source
from automock.errors import InputError

__all__ = [
    "MAX_MODULES",
    "Project",
    "ProjectModule",
    "discover_project",
    "package_root",
    "project_root",
]

MAX_MODULES = 2000
_SKIPPED_PARTS = frozenset({"site-packages", "dist-packages", "__pycache__", ".venv", "venv"})


@dataclass(frozen=True, slots=True)
class ProjectModule:
    """One module of a project: its dotted name, its file, its path from the project root."""

    name: str
    path: Path
    rel: str
    package: bool = False  # an ``__init__.py``


@dataclass(frozen=True, slots=True)
class Project:
    """An entry script and the project modules reachable from it (entry first)."""

    root: Path
    modules: tuple[ProjectModule, ...]

    @property
    def entry(self) -> ProjectModule:
        return self.modules[0]

    def module_named(self, name: str) -> ProjectModule | None:
        return next((m for m in self.modules if m.name == name), None)


def package_root(entry: Path) -> tuple[Path, str]:
    """The directory above the outermost package holding ``entry``, and ``entry``'s dotted name."""
    parts = [entry.stem] if entry.name != "__init__.py" else []
    directory = entry.parent
    while (directory / "__init__.py").is_file() and directory.parent != directory:
        parts.insert(0, directory.name)
        directory = directory.parent
    return directory, ".".join(parts) or entry.parent.name


def project_root(entry: Path) -> Path:
    """The project's root directory: above the entry's outermost package, else its directory."""
    top, _ = package_root(entry)
    return (top if top != entry.parent else entry.parent).resolve()


def _search_roots(entry: Path, top: Path) -> list[Path]:
    roots: list[Path] = []
    for candidate in (entry.parent, top, entry.parent / "src", top / "src"):
        if candidate.is_dir() and candidate not in roots:
            roots.append(candidate)
    return roots


class _Finder:
    """Dotted module name -> file inside the project, or ``None``."""

    def __init__(self, root: Path, roots: list[Path]) -> None:
        self.root = root
        self.roots = roots
        self.cache: dict[str, ProjectModule | None] = {}

    def find(self, name: str) -> ProjectModule | None:
        if name not in self.cache:
            self.cache[name] = self._find(name)
        return self.cache[name]

    def _find(self, name: str) -> ProjectModule | None:
        parts = name.split(".")
        if not all(p.isidentifier() for p in parts):
            return None
        for base in self.roots:
            for path, package in (
                (base.joinpath(*parts, "__init__.py"), True),
                (base.joinpath(*parts[:-1], parts[-1] + ".py"), False),
            ):
                rel = self._inside(path)
                if rel is not None:
                    return ProjectModule(name, path, rel, package)
        return None

    def _inside(self, path: Path) -> str | None:
        """``path``'s posix path from the root when it is a file really inside the project."""
        try:
            if not path.is_file():
                return None
            rel = path.resolve().relative_to(self.root)
        except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop
            return None  # a symlink out of the project (or going nowhere): not followed
        if _SKIPPED_PARTS.intersection(rel.parts):
            return None
        return rel.as_posix()


def _imported_names(tree: ast.Module, module: ProjectModule) -> list[str]:
    """Every module name an import in ``tree`` may load (parents and submodules included)."""
    names: list[str] = []
    package = module.name if module.package else module.name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names.extend(_with_parents(alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".") if package else []
                if node.level - 1 > len(anchor):
                    continue
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            if not base:
                continue
            names.extend(_with_parents(base))
            names.extend(f"{base}.{a.name}" for a in node.names if a.name != "*")
    return names


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts) + 1)]


def _parse(path: Path) -> ast.Module | None:
    try:
        return ast.parse(decode_source(path.read_bytes()), str(path))
    except (OSError, ValueError, SyntaxError, LookupError, RecursionError, MemoryError):
        return None  # the scan reports the error for that file


def discover_project(entry_path: str | os.PathLike[str]) -> Project:
    """The project of ``entry_path``: the entry and every project module its imports reach.

    Modules are listed entry first, then in the order the imports reach them
    (breadth first). A missing entry raises :class:`InputError`.
    """
    entry = Path(entry_path)
    if not entry.is_file():
        raise InputError(f"{entry}: no such file; pass the Python file your program starts from")
    top, dotted = package_root(entry)
    root = project_root(entry)
    finder = _Finder(root, _search_roots(entry, top))
    rel = entry.resolve().relative_to(root).as_posix()
    first = ProjectModule(dotted, entry, rel, entry.name == "__init__.py")
    found: dict[str, ProjectModule] = {first.rel: first}
    queue = deque([first])
    while queue and len(found) < MAX_MODULES:
        module = queue.popleft()
        tree = _parse(module.path)
        if tree is None:
            continue
        for name in _imported_names(tree, module):
            target = finder.find(name)
            if target is not None and target.rel not in found:
                found[target.rel] = target
                queue.append(target)
    return Project(root, tuple(found.values()))
