"""Drafted plans on real scripts: how many network programs reach their main path.

Each script of ``tests/corpus/scripts`` (our own programs, each following a
pattern seen in a public repository, see ``tests/corpus/MANIFEST.json``)
is copied into a fresh directory and run twice with ``automock run`` on the
plan the offline drafter writes for it (no hand edits). A script counts when
both runs exit 0, print the same output, and the output holds the manifest's
main-path line (a line only the success path prints).

Target: >= 90% of the network programs (JSON, HTML, XML) reach their main
path. Baseline in the same run: with ``--baseline-src DIR`` (a tree holding an
earlier ``automock`` package inside this repository, so the sandbox can read it,
e.g. ``git archive a2a5a37 automock | tar -x -C .base``), the same corpus on that
drafter; without it, the share that merely exits 0.

    python benchmarks/corpus_drafts.py [--only NAME ...] [--verbose] [--baseline-src DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"
TARGET = 0.90


def run_one(entry: dict[str, str], workdir: Path, src: str | None = None) -> tuple[bool, bool, str]:
    """(exited 0 twice, reached the main path deterministically, a short reason)."""
    env = dict(os.environ, PYTHONPATH=src) if src else None
    name = entry["name"]
    shutil.copy(CORPUS / "scripts" / f"{name}.py", workdir / f"{name}.py")
    cmd = [sys.executable, "-m", "automock", "run", f"{name}.py"]
    outs = []
    for _ in range(2):
        proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=60, env=env)
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
            return False, False, f"exit {proc.returncode}: {tail[:160]}"
        outs.append(proc.stdout.split("── automock run", 1)[0])
    if outs[0] != outs[1]:
        return True, False, "output differs between runs"
    if entry["expect"] not in outs[0]:
        return True, False, f"main-path line {entry['expect']!r} missing: {outs[0][:160]!r}"
    return True, True, "ok"


def measure(manifest: list[dict[str, str]], src: str | None, verbose: bool) -> tuple[int, int, int]:
    """(network programs, exited 0, reached the main path) over ``manifest``."""
    exited = reached = total = 0
    for entry in manifest:
        with tempfile.TemporaryDirectory() as tmp:
            ok_exit, ok_main, why = run_one(entry, Path(tmp), src)
        if verbose or not ok_main:
            print(f"  {'PASS' if ok_main else 'FAIL'} {entry['name']:<30} {why}")
        if entry["kind"] in ("json", "html", "xml"):
            total += 1
            exited += ok_exit
            reached += ok_main
    return total, exited, reached


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="script names to run")
    parser.add_argument("--verbose", action="store_true", help="print every script's result")
    parser.add_argument("--baseline-src", default=None, help="tree with an earlier automock")
    args = parser.parse_args(argv)
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text())
    if args.only:
        manifest = [e for e in manifest if e["name"] in args.only]
    if args.baseline_src:
        print(f"baseline: automock from {args.baseline_src}")
        _, _, before = measure(manifest, str(Path(args.baseline_src).resolve()), args.verbose)
    print("this tree:")
    total, exited, reached = measure(manifest, None, args.verbose)
    share = reached / total if total else 0.0
    print(f"network programs: {total}; exit 0: {exited} ({exited / max(total, 1):.0%})")
    print(f"reached main path deterministically: {reached}/{total} = {share:.1%}")
    base = before if args.baseline_src else exited
    label = "baseline drafter reached" if args.baseline_src else "exit 0 (baseline measure)"
    print(f"{label}: {base}/{total} = {base / max(total, 1):.1%}")
    verdict = "PASS" if share >= TARGET else "FAIL"
    print(f"target >= {TARGET:.0%}: {verdict} (ratio to baseline {reached / max(base, 1):.2f})")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
