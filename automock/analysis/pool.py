"""Parallel directory scans: files are split across a process pool."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from automock.analysis.model import FileScan

__all__ = ["scan_many"]


def _scan_chunk(job: tuple[list[str], str | None]) -> list[FileScan]:
    from automock.analysis.scanner import scan_file

    paths, cache_dir = job
    return [scan_file(p, cache_dir=cache_dir) for p in paths]


def scan_many(
    files: Sequence[Path], *, jobs: int, cache_dir: str | os.PathLike[str] | None = None
) -> list[FileScan]:
    """Scan ``files`` with ``jobs`` worker processes; results keep the input order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    names = [str(f) for f in files]
    # Interleaved chunks balance big and small files; a few per worker keeps
    # the pickling overhead low.
    count = max(1, min(len(names), jobs * 4))
    cache = os.fspath(cache_dir) if cache_dir is not None else None
    chunks = [(names[i::count], cache) for i in range(count)]
    context = multiprocessing.get_context("fork")
    results: dict[str, FileScan] = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        for chunk_result in pool.map(_scan_chunk, chunks):
            for scan in chunk_result:
                results[scan.path] = scan
    return [results[n] for n in names]
