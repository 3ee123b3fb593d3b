"""Throughput of ``automock scan`` against ``ast.parse`` on the CPython stdlib.

Usage: python benchmarks/scan_speed.py [--limit N] [--jobs N] [--rounds N]

Both are measured in the same run over the same files, read from disk each
time: the baseline reads and ``ast.parse``-s every file; automock scans the
same list with a cold in-memory cache (no disk cache), once in one process
and once with ``--jobs`` worker processes. The three measurements alternate
for ``--rounds`` rounds and the best time of each is kept, so a busy machine
disturbs the ratio less. Prints lines/s for each and the ratio to ast.parse, and
issue 16's target for one process (>= 0.4x ``ast.parse``) with PASS or FAIL; the exit
status is 1 when it fails.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET = 0.4  # issue 16: the scan keeps at least 0.4x ast.parse's lines/s


def stdlib_files(limit: int | None) -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts and p.is_file())
    return files[:limit] if limit else files


def parse_all(files: list[Path]) -> None:
    for path in files:
        with contextlib.suppress(SyntaxError, ValueError):
            ast.parse(path.read_bytes())


def scan_all(files: list[Path], jobs: int) -> tuple[int, int]:
    from automock.analysis import scanner

    scanner._CACHE.clear()  # cold: no reuse of earlier rounds' results
    result = scanner.scan_paths(files, jobs=jobs)
    return len(result.touchpoints), len(result.errors)


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N files only")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds; best is kept")
    args = parser.parse_args()

    import libcst

    libcst.parse_module("x = 1\n")  # load the native parser outside the timings

    files = stdlib_files(args.limit)
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(f"{len(files)} files, {lines:,} lines from {sysconfig.get_paths()['stdlib']}")
    print(f"cpus: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")
    best: dict[str, float] = {}
    labels = ["ast.parse", "automock scan, 1 process"]
    if args.jobs > 1:
        labels.append(f"automock scan, {args.jobs} processes")
    for _ in range(args.rounds):
        runs: list[tuple[str, Callable[[], object]]] = [
            (labels[0], lambda: parse_all(files)),
            (labels[1], lambda: scan_all(files, 1)),
        ]
        if args.jobs > 1:
            runs.append((labels[2], lambda: scan_all(files, args.jobs)))
        for label, action in runs:
            best[label] = min(best.get(label, float("inf")), timed(action))
    base_rate = lines / best[labels[0]]
    for label in labels:
        rate = lines / best[label]
        ratio = "" if label == labels[0] else f"  ratio {rate / base_rate:.3f}x"
        print(f"{label:<28}: {rate:>10,.0f} lines/s ({best[label]:.2f} s){ratio}")
    touchpoints, errors = scan_all(files, args.jobs)
    print(f"{touchpoints} touchpoints, {errors} files that could not be analyzed")
    one = (lines / best[labels[1]]) / base_rate
    verdict = "PASS" if one >= TARGET else "FAIL"
    print(f"target: automock scan, 1 process >= {TARGET}x ast.parse: {one:.3f}x [{verdict}]")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
