"""Drafted plans on real scripts: how many network programs reach their main path.

Each script of ``tests/corpus/scripts`` (real public-repository scripts or
faithful reconstructions of their patterns, see ``tests/corpus/MANIFEST.json``)
is copied into a fresh directory and run twice with ``automock run`` on the
plan the offline drafter writes for it (no hand edits). A script counts when
both runs exit 0, print the same output, and the output holds the manifest's
main-path line (a line only the success path prints).

Target: >= 90% of the network programs (JSON, HTML, XML) reach their main
path. Baseline in the same run: the share that merely exits 0 (what a
"runs without crashing" check would report).

    python benchmarks/corpus_drafts.py [--only NAME ...] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"
TARGET = 0.90


def run_one(entry: dict[str, str], workdir: Path) -> tuple[bool, bool, str]:
    """(exited 0 twice, reached the main path deterministically, a short reason)."""
    name = entry["name"]
    shutil.copy(CORPUS / "scripts" / f"{name}.py", workdir / f"{name}.py")
    cmd = [sys.executable, "-m", "automock", "run", f"{name}.py"]
    outs = []
    for _ in range(2):
        proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
            return False, False, f"exit {proc.returncode}: {tail[:160]}"
        outs.append(proc.stdout.split("── automock run", 1)[0])
    if outs[0] != outs[1]:
        return True, False, "output differs between runs"
    if entry["expect"] not in outs[0]:
        return True, False, f"main-path line {entry['expect']!r} missing: {outs[0][:160]!r}"
    return True, True, "ok"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="script names to run")
    parser.add_argument("--verbose", action="store_true", help="print every script's result")
    args = parser.parse_args(argv)
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text())
    if args.only:
        manifest = [e for e in manifest if e["name"] in args.only]
    network = {"json", "html", "xml"}
    exited = reached = total = 0
    failures = []
    for entry in manifest:
        with tempfile.TemporaryDirectory() as tmp:
            ok_exit, ok_main, why = run_one(entry, Path(tmp))
        if args.verbose or not ok_main:
            print(f"  {'PASS' if ok_main else 'FAIL'} {entry['name']:<30} {why}")
        if entry["kind"] in network:
            total += 1
            exited += ok_exit
            reached += ok_main
        if not ok_main:
            failures.append(entry["name"])
    share = reached / total if total else 0.0
    baseline = exited / total if total else 0.0
    print(f"network programs: {total}; exit 0 (baseline measure): {exited} ({baseline:.0%})")
    print(f"reached main path deterministically: {reached}/{total} = {share:.1%}")
    verdict = "PASS" if share >= TARGET else "FAIL"
    print(
        f"target >= {TARGET:.0%}: {verdict} (ratio to baseline {share / max(baseline, 1e-9):.2f})"
    )
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
