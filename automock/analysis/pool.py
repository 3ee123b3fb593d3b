"""Parallel directory scans: files are split across a process pool."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from automock.analysis.model import FileScan

__all__ = ["scan_many"]


def _scan_chunk(paths: list[str]) -> list[FileScan]:
    from automock.analysis.scanner import scan_file

    return [scan_file(p) for p in paths]


def scan_many(files: Sequence[Path], *, jobs: int) -> list[FileScan]:
    """Scan ``files`` with ``jobs`` worker processes; results keep the input order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    names = [str(f) for f in files]
    # Interleaved chunks balance big and small files; a few per worker keeps
    # the pickling overhead low.
    count = max(1, min(len(names), jobs * 4))
    chunks = [names[i::count] for i in range(count)]
    context = multiprocessing.get_context("fork")
    results: dict[str, FileScan] = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        for chunk_result in pool.map(_scan_chunk, chunks):
            for scan in chunk_result:
                results[scan.path] = scan
    return [results[n] for n in names]
