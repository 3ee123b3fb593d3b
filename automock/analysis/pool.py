"""Parallel directory scans: files are split across a process pool.

The pool is told how to scan one file (:data:`ScanOne`, the scanner's
``scan_file``), so it needs nothing of the scanner and the scanner imports it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from automock.analysis.model import FileScan

__all__ = ["ScanOne", "scan_many"]

ScanOne = Callable[[str, str | None], FileScan]
"""Scan one file: ``(path, cache_dir) -> FileScan``; module-level, so workers can unpickle it."""


def _scan_chunk(job: tuple[ScanOne, list[str], str | None]) -> list[FileScan]:
    scan_one, paths, cache_dir = job
    return [scan_one(p, cache_dir) for p in paths]


def scan_many(
    files: Sequence[Path],
    scan_one: ScanOne,
    *,
    jobs: int,
    cache_dir: str | os.PathLike[str] | None = None,
) -> list[FileScan]:
    """Scan ``files`` with ``scan_one`` in ``jobs`` worker processes; results keep the input order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    names = [str(f) for f in files]
    # Interleaved chunks balance big and small files; a few per worker keeps
    # the pickling overhead low.
    count = max(1, min(len(names), jobs * 4))
    cache = os.fspath(cache_dir) if cache_dir is not None else None
    chunks = [(scan_one, names[i::count], cache) for i in range(count)]
    context = multiprocessing.get_context("fork")
    results: dict[str, FileScan] = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        for chunk_result in pool.map(_scan_chunk, chunks):
            for scan in chunk_result:
                results[scan.path] = scan
    return [results[n] for n in names]
