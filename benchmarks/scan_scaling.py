"""Does ``automock scan`` stay linear as a file grows? Issue 28's dense generated files.

Usage: python benchmarks/scan_scaling.py [--big-lines N] [--skip-big] [--code DIR --old]

``--code DIR`` scans with the automock package found in DIR (a checkout of another
commit, e.g. ``git archive main automock | tar -x -C DIR``) for a before/after
comparison; ``--old`` for one that predates ``--max-file-size``.

Generates, in a temporary directory, modules of 8-line functions: the 3-touchpoint shape
(``time.time()``, ``random.random()``, ``os.environ.get``) and the 2-touchpoint shape
(an entropy-seeded ``random.Random()`` and a draw from it), at 2,000 and 20,000 lines,
plus a 100,000-line file of ~44 bytes a line (4.4 MB). Each file is scanned by
``automock scan --json`` in a subprocess of its own (wall time, and the peak RSS of that
process from ``RUSAGE_CHILDREN``); ``ast.parse`` of the same file, also in a subprocess, is
the baseline measured in the same run. Times are CPU seconds (user + system, robust to
a busy machine; wall time is printed beside them), except the refusal's, which is wall
time. Prints a table, the per-line cost growth 2k -> 20k,
and PASS/FAIL for each of issue 28's targets; exit status 1 if any fails.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._timing import load_line

GROWTH = 1.5  # per-line cost 20k / 2k
SECONDS_20K = 5.0
MIB_20K = 300
MIB_BIG = 500
SECONDS_REFUSED = 10.0
ENV = dict(os.environ)


def dense(lines: int, shape: int, pad: int = 0) -> str:
    """A module of 8-line functions with ``shape`` (2 or 3) touchpoints each."""
    out = ["import os\nimport random\nimport time\n\n\n"]
    comment = "  # " + "x" * pad if pad else ""
    for index in range(max(1, (lines - 5) // 8)):
        if shape == 3:
            body = (
                f"    stamp = time.time(){comment}\n    draw = random.random()\n"
                f"    setting = os.environ.get('KEY_{index}')\n    total = value + {index}\n"
            )
        else:
            body = (
                f"    generator = random.Random(){comment}\n"
                f"    draw = generator.randint(0, {index})\n"
                f"    total = value * {index} + draw\n    half = total // 2\n"
            )
        out.append(f"def compute_{index:06d}(value):\n{body}    return value\n\n\n")
    return "".join(out)


def measured(argv: list[str]) -> tuple[float, float, int, float]:
    """Wall seconds, peak RSS (MiB), exit code and CPU seconds of one subprocess (``wait4``:
    its own rusage, not the largest of every child so far)."""
    start = time.perf_counter()
    # run from the files' directory: ``-m`` puts the working directory first on sys.path,
    # which would shadow ``--code``'s automock when run from a checkout
    child = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=ENV,
        cwd=tempfile.gettempdir(),
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, child.returncode, usage.ru_utime + usage.ru_stime


def scan_argv(path: Path, extra: list[str]) -> list[str]:
    return [sys.executable, "-m", "automock", "scan", "--json", str(path), *extra]


def parse_argv(path: Path) -> list[str]:
    code = "import ast, sys; ast.parse(open(sys.argv[1], encoding='utf-8').read())"
    return [sys.executable, "-c", code, str(path)]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--big-lines", type=int, default=100_000)
    parser.add_argument("--skip-big", action="store_true", help="no 100k-line file")
    parser.add_argument("--code", type=Path, help="scan with the automock package in DIR")
    parser.add_argument("--old", action="store_true", help="that automock has no size flag")
    args = parser.parse_args()
    if args.code is not None:
        ENV["PYTHONPATH"] = str(args.code.resolve())
    no_limit = [] if args.old else ["--max-file-size", "0"]
    load_before = os.getloadavg()[0]
    verdicts: list[tuple[str, bool]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rows: dict[tuple[int, int], tuple[float, float, float, int]] = {}  # base, cpu, MiB, exit
        print(
            f"{'file':<26}{'bytes':>10}{'ast.parse s':>13}{'scan s':>9}{'wall s':>8}{'scan MiB':>10}{'ratio':>8}"
        )
        for lines in (2_000, 20_000):
            for shape in (3, 2):
                path = root / f"dense_{lines}_{shape}tp.py"
                path.write_text(dense(lines, shape))
                *_, base = measured(parse_argv(path))
                wall, peak, code, cpu = measured(scan_argv(path, no_limit))
                rows[(lines, shape)] = (base, cpu, peak, code)
                print(
                    f"{path.name:<26}{path.stat().st_size:>10,}{base:>13.2f}{cpu:>9.2f}"
                    f"{wall:>8.2f}{peak:>10.0f}{cpu / base:>7.1f}x"
                    + ("" if code == 0 else f" exit {code}")
                )
        for shape in (3, 2):
            small, large = rows[(2_000, shape)], rows[(20_000, shape)]
            growth = (large[1] / 20_000) / (small[1] / 2_000)
            base_growth = (large[0] / 20_000) / (small[0] / 2_000)
            print(
                f"{shape} touchpoints/function: per-line cost 2k -> 20k x{growth:.2f} "
                f"(ast.parse x{base_growth:.2f})"
            )
            verdicts.append((f"{shape}tp growth {growth:.2f} <= {GROWTH}", growth <= GROWTH))
            verdicts.append(
                (f"{shape}tp 20k in {large[1]:.1f} s <= {SECONDS_20K}", large[1] <= SECONDS_20K)
            )
            verdicts.append((f"{shape}tp 20k {large[2]:.0f} MiB <= {MIB_20K}", large[2] <= MIB_20K))
            verdicts.append((f"{shape}tp scans exit 0", small[3] == large[3] == 0))
        if not args.skip_big:
            path = root / f"dense_{args.big_lines}_3tp.py"
            path.write_text(dense(args.big_lines, 3, pad=175))
            size = path.stat().st_size
            *_, base = measured(parse_argv(path))
            wall, peak, code, _ = measured(scan_argv(path, []))
            what = "refused (exit 6)" if code == 6 else f"exit {code}"
            print(
                f"{path.name}: {size / 1e6:.1f} MB, ast.parse {base:.2f} s, scan {wall:.2f} s, "
                f"peak {peak:.0f} MiB, {what}"
            )
            ok = (code == 6 and wall <= SECONDS_REFUSED) or (code == 0 and peak <= MIB_BIG)
            verdicts.append(
                (
                    f"{args.big_lines} lines: scanned <= {MIB_BIG} MiB or refused "
                    f"<= {SECONDS_REFUSED:.0f} s",
                    ok,
                )
            )
    print(load_line(load_before, os.getloadavg()[0]))
    for label, ok in verdicts:
        print(f"target: {label} [{'PASS' if ok else 'FAIL'}]")
    return 0 if all(ok for _, ok in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
