"""Throughput of ``automock scan`` against ``ast.parse`` on the CPython stdlib.

Usage: python benchmarks/scan_speed.py [--limit N] [--jobs N] [--no-parallel]

Both are measured in the same run over the same files (read from disk each
time): the baseline reads and ``ast.parse``-s every file; automock scans the
same list with a cold cache, once serially and once with a process pool.
Prints lines/s for each and the ratio automock / ast.parse.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import sysconfig
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def stdlib_files(limit: int | None) -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(
        p for p in root.rglob("*.py") if "site-packages" not in p.parts and p.is_file()
    )
    return files[:limit] if limit else files


def count_lines(files: list[Path]) -> int:
    return sum(p.read_bytes().count(b"\n") for p in files)


def baseline(files: list[Path]) -> float:
    start = time.perf_counter()
    for path in files:
        try:
            ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            pass
    return time.perf_counter() - start


def automock_scan(files: list[Path], jobs: int) -> tuple[float, int, int]:
    from automock.analysis import scanner

    scanner._CACHE.clear()  # cold: no result reuse between runs
    start = time.perf_counter()
    result = scanner.scan_paths(files, jobs=jobs)
    elapsed = time.perf_counter() - start
    return elapsed, len(result.touchpoints), len(result.errors)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N files only")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-parallel", action="store_true")
    args = parser.parse_args()

    import libcst  # noqa: F401  (import cost is not per-file work)

    from automock.analysis import scanner

    files = stdlib_files(args.limit)
    lines = count_lines(files)
    print(f"{len(files)} files, {lines:,} lines from {sysconfig.get_paths()['stdlib']}")
    base = baseline(files)
    base_rate = lines / base
    print(f"ast.parse                : {base_rate:>12,.0f} lines/s ({base:.2f} s)")
    serial, touchpoints, errors = automock_scan(files, jobs=1)
    rate = lines / serial
    print(
        f"automock scan (1 process): {rate:>12,.0f} lines/s ({serial:.2f} s)"
        f"  ratio {rate / base_rate:.3f}x   [{touchpoints} touchpoints, {errors} unscannable files]"
    )
    if not args.no_parallel and args.jobs > 1:
        parallel, _, _ = automock_scan(files, jobs=args.jobs)
        rate = lines / parallel
        print(
            f"automock scan ({args.jobs} procs)  : {rate:>12,.0f} lines/s ({parallel:.2f} s)"
            f"  ratio {rate / base_rate:.3f}x"
        )
    stats = scanner.STATS if hasattr(scanner, "STATS") else None
    if stats:
        print("stages:", dict(stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
