"""Scan a project: every module's own scan, plus what only shows across modules.

* :func:`scan_project`: the entry script and the project modules it imports
  (:func:`automock.analysis.project.discover_project`), entry first;
* :func:`scan_tree`: every file under directories (``automock scan DIR``),
  each module named as Python would import it (:func:`package_root`).

Each file is scanned by :func:`automock.analysis.scanner.scan_file` (cached by
content), then :func:`automock.analysis.flow.flow_touchpoints` adds the calls
reached through a session, client or RNG handed across functions and modules.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from automock._source import decode_source
from automock.analysis.flow import FlowModule, flow_touchpoints
from automock.analysis.model import FileScan, ScanResult, Touchpoint
from automock.analysis.project import Project, discover_project, package_root
from automock.analysis.scanner import MAX_BYTES, parse_kinds, scan_file

__all__ = ["ProjectScan", "scan_project", "scan_tree", "shown_path"]

PathLike = str | os.PathLike[str]


def shown_path(path: Path) -> str:
    """``path`` relative to the working directory when inside it, else absolute (POSIX)."""
    resolved = path.resolve()
    try:
        return resolved.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return resolved.as_posix()


class ProjectScan:
    """A project's modules (entry first) and the scan of each, with cross-module touchpoints."""

    def __init__(self, project: Project, result: ScanResult) -> None:
        self.project = project
        self.result = result

    def by_module(self) -> dict[str, FileScan]:
        """Each module's scan by its path from the project root."""
        return dict(zip((m.rel for m in self.project.modules), self.result.files, strict=True))


def _flow_module(scan: FileScan, path: Path, name: str, package: bool) -> FlowModule | None:
    if scan.error is not None:
        return None
    try:
        source = decode_source(path.read_bytes())
        tree = ast.parse(source, scan.path)
    except (OSError, ValueError, SyntaxError, LookupError, RecursionError, MemoryError):
        return None
    return FlowModule(name, scan.path, source, tree, package)


def _merged(scan: FileScan, extra: Iterable[Touchpoint]) -> FileScan:
    seen = {(t.line, t.col) for t in scan.touchpoints}
    added = [t for t in extra if (t.line, t.col) not in seen]
    if not added:
        return scan
    touchpoints = sorted(
        (*scan.touchpoints, *added), key=lambda t: (t.line, t.col, t.end_line, t.end_col, t.api)
    )
    return FileScan(scan.path, tuple(touchpoints), scan.error, scan.sha256)


def _with_flow(
    scans: list[FileScan], named: Sequence[tuple[Path, str, bool]], kinds: frozenset[str] | None
) -> ScanResult:
    modules = [
        m
        for scan, (path, name, package) in zip(scans, named, strict=True)
        if (m := _flow_module(scan, path, name, package)) is not None
    ]
    extra = flow_touchpoints(modules)
    out = []
    for scan in scans:
        merged = _merged(scan, extra.get(scan.path, ()))
        if kinds is not None:
            kept = tuple(t for t in merged.touchpoints if t.kind in kinds)
            merged = FileScan(merged.path, kept, merged.error, merged.sha256)
        out.append(merged)
    return ScanResult(tuple(out))


def scan_project(
    entry: PathLike,
    *,
    kinds: Iterable[str] | str | None = None,
    cache_dir: PathLike | None = None,
    max_bytes: int | None = MAX_BYTES,
) -> ProjectScan:
    """Scan ``entry`` and every project module it imports (see :mod:`automock.analysis.project`).

    The entry keeps the path it was given; the other modules are shown
    relative to the working directory.
    """
    wanted = parse_kinds(kinds)
    project = discover_project(entry)
    scans: list[FileScan] = []
    named: list[tuple[Path, str, bool]] = []
    for index, module in enumerate(project.modules):
        shown = os.fspath(entry) if index == 0 else shown_path(module.path)
        scans.append(scan_file(shown, cache_dir=cache_dir, max_bytes=max_bytes))
        named.append((module.path, module.name, module.package))
    return ProjectScan(project, _with_flow(scans, named, wanted))


def scan_tree(
    files: Sequence[Path],
    scans: Sequence[FileScan],
    *,
    kinds: Iterable[str] | str | None = None,
) -> ScanResult:
    """Add cross-module touchpoints to the scans of ``files`` (one project per call)."""
    named = []
    for path in files:
        _, name = package_root(path)
        named.append((path, name, path.name == "__init__.py"))
    return _with_flow(list(scans), named, parse_kinds(kinds))
