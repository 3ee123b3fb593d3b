"""``automock scan PATH...``: list the touchpoints in Python files.

Output: a table grouped by file (default), ``--json`` (``ScanResult.to_dict``)
or ``--sarif`` (SARIF 2.1.0). Exit codes: 0 scanned; 1 touchpoints found and
``--fail-on-touchpoints`` given; 6 a file over ``--max-file-size`` was skipped (the
rest scanned; 2 wins over 6, 6 over 1); 2 bad input -- a missing path stops at once,
while files that cannot be scanned (syntax error, binary, not UTF-8) are
reported one line each on stderr, the rest of the scan goes on, and the exit
code is 2 at the end (it wins over 1).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from automock.analysis.model import KINDS, ScanResult
from automock.errors import EXIT_INPUT, EXIT_TOO_LARGE, FileTooLargeError, InputError

__all__ = ["add_arguments", "format_text", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="Python files or directories")
    fmt = parser.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print JSON (files + summary)")
    fmt.add_argument("--sarif", action="store_true", help="print a SARIF 2.1.0 log")
    parser.add_argument(
        "--kinds",
        metavar="KIND[,KIND...]",
        help=f"only report these kinds ({', '.join(KINDS)})",
    )
    parser.add_argument(
        "--fail-on-touchpoints",
        action="store_true",
        help="exit 1 if any touchpoint is found (lint mode)",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="skip files/directories matching GLOB (repeatable; venvs, build dirs, "
        ".gitignore entries are skipped already)",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=0,
        metavar="N",
        help="worker processes for directory scans (default: one per CPU for 50+ files)",
    )
    parser.add_argument(
        "--follow",
        action="store_true",
        help="also scan the project modules each FILE imports (its package, src/ layouts; "
        "never site-packages), as `automock run` and `draft` do",
    )
    parser.add_argument(
        "--max-file-size",
        type=_size,
        default=None,
        metavar="SIZE",
        help="skip files larger than SIZE (bytes, or 500K, 8M; 0: no limit; default 1M), "
        "reporting each skipped file; exit 6 if any was skipped",
    )
    parser.add_argument(
        "--cache",
        action="store_true",
        help="reuse results for unchanged files from .automock-cache/ (by content hash)",
    )


def _size(text: str) -> int:
    """``--max-file-size``: bytes, or a number with K or M (powers of 1024)."""
    units = {"K": 1 << 10, "M": 1 << 20}
    scale = units.get(text[-1:].upper(), 1)
    digits = text[:-1] if scale > 1 else text
    if not digits.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a size; write bytes or e.g. 500K, 8M")
    return int(digits) * scale


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def format_text(result: ScanResult) -> str:
    """A table per file with touchpoints, then a one-line summary."""
    lines: list[str] = []
    for scan in result.files:
        if not scan.touchpoints:
            continue
        lines.append(scan.path)
        rows = [
            (t.position, t.kind, t.api, _shorten(t.symbol, 40), t.reason) for t in scan.touchpoints
        ]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        for row in rows:
            cells = [cell.ljust(widths[i]) for i, cell in enumerate(row[:4])]
            lines.append("  " + "  ".join(cells) + "  " + row[4])
        lines.append("")
    summary = result.summary()
    by_kind = ", ".join(f"{k} {n}" for k, n in summary["by_kind"].items() if n)
    files = summary["files"]
    text = f"{summary['touchpoints']} touchpoint(s) in {files} file(s)"
    if by_kind:
        text += f" ({by_kind})"
    if summary["files_with_errors"]:
        text += f"; {summary['files_with_errors']} file(s) could not be scanned"
    lines.append(text)
    return "\n".join(lines) + "\n"


def _jobs(requested: int, count: int) -> int:
    if requested < 0:
        raise InputError(f"--jobs {requested}: must be 0 (auto) or a positive number")
    if requested:
        return requested
    return min(os.cpu_count() or 1, 8) if count >= 50 else 1


def _followed(
    paths: list[str], kinds: frozenset[str] | None, cache_dir: str | None, max_bytes: int | None
) -> ScanResult:
    """Each entry file and the project modules it imports, each module once."""
    from automock.analysis.follow import scan_project

    files = []
    seen: set[str] = set()
    for path in paths:
        if os.path.isdir(path):
            raise InputError(f"{path}: --follow starts from an entry file; pass FILE.py")
        for scan in scan_project(
            path, kinds=kinds, cache_dir=cache_dir, max_bytes=max_bytes
        ).result.files:
            if scan.path not in seen:
                seen.add(scan.path)
                files.append(scan)
    return ScanResult(tuple(files))


def run(args: argparse.Namespace) -> int:
    from automock import __version__
    from automock.analysis.scanner import MAX_BYTES, parse_kinds, scan_paths

    kinds = parse_kinds(args.kinds) if args.kinds is not None else None
    cache_dir = ".automock-cache" if args.cache else None
    limit = MAX_BYTES if args.max_file_size is None else args.max_file_size or None
    if args.follow:
        result = _followed(args.paths, kinds, cache_dir, limit)
    else:
        result = scan_paths(
            args.paths,
            kinds=None,
            excludes=args.exclude,
            jobs=lambda count: _jobs(args.jobs, count),
            cache_dir=cache_dir,
            max_bytes=limit,
        )
        if any(os.path.isdir(p) for p in args.paths):  # a directory is a project
            from pathlib import Path

            from automock.analysis.follow import scan_tree

            files = [Path(f.path) for f in result.files]
            result = scan_tree(files, result.files, kinds=kinds)
        elif kinds is not None:
            result = scan_paths(args.paths, kinds=kinds, cache_dir=cache_dir, max_bytes=limit)
    single_file = len(args.paths) == 1 and not os.path.isdir(args.paths[0]) and not args.follow
    if single_file and result.errors:  # one named file: one error line, nothing else
        error = result.errors[0]
        raise (FileTooLargeError if error.too_large else InputError)(str(error.error))
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2) + "\n")
    elif args.sarif:
        from automock.analysis.sarif import to_sarif

        sys.stdout.write(json.dumps(to_sarif(result, version=__version__), indent=2) + "\n")
    else:
        sys.stdout.write(format_text(result))
    for scan in result.errors:
        print(f"automock: error: {scan.error}", file=sys.stderr)
    if any(not scan.too_large for scan in result.errors):
        return EXIT_INPUT
    if result.errors:  # only skipped files: they are not bad input, but not scanned either
        return EXIT_TOO_LARGE
    if args.fail_on_touchpoints and result.touchpoints:
        return 1
    return 0
