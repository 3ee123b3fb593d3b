"""Cost of the offline drafter against ``ast.parse`` and the scanner, on the same sources.

Usage: python benchmarks/draft_speed.py [--functions N] [--stdlib N]

Two workloads, each measured in the same run:

- a synthetic module of N functions, each with an HTTP call whose response is
  walked, an environment read, random/time reads and a sqlite query (the
  drafter's worst case: every touchpoint needs data);
- the first N files of the CPython stdlib (real code, few HTTP calls).

Prints seconds for ast.parse (baseline), scan, and draft given the scan's
touchpoints, and the ratios draft / ast.parse and draft / scan.
"""

from __future__ import annotations

import argparse
import ast
import sys
import sysconfig
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def synthetic(functions: int) -> str:
    parts = ["import os, random, time, sqlite3, requests", "API = 'https://api.example.com'"]
    for i in range(functions):
        parts.append(
            f"""
def f{i}(city):
    r = requests.get(f"{{API}}/v{i}/items", params={{"c": city}})
    data = r.json()
    for it in data["items"]:
        print(it["name"], it["price_{i}"], os.getenv("VAR{i}", "x"), random.random(), time.time())
    conn = sqlite3.connect("db{i}.sqlite")
    conn.execute("SELECT a{i}, b FROM t{i} WHERE c = ?", (1,))
    return data["meta"]
"""
        )
    return "\n".join(parts)


def measure(sources: list[tuple[str, str]]) -> tuple[float, float, float, int]:
    from automock.analysis.scanner import scan_source
    from automock.drafting import draft

    t0 = time.perf_counter()
    for _, text in sources:
        ast.parse(text)
    t1 = time.perf_counter()
    scans = [scan_source(text, name) for name, text in sources]
    t2 = time.perf_counter()
    entries = 0
    for (_, text), scan in zip(sources, scans, strict=True):
        if scan.error is None:
            entries += len(draft(text, touchpoints=scan.touchpoints).entries)
    t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2, entries


def report(label: str, sources: list[tuple[str, str]]) -> None:
    lines = sum(text.count("\n") for _, text in sources)
    parse, scan, drafting, entries = measure(sources)
    print(f"{label}: {len(sources)} files, {lines} lines, {entries} plan entries")
    print(f"  ast.parse {parse:8.3f}s   scan {scan:8.3f}s   draft {drafting:8.3f}s")
    print(
        f"  draft / ast.parse = {drafting / parse:6.1f}x   draft / scan = {drafting / scan:5.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=400)
    parser.add_argument("--stdlib", type=int, default=200)
    args = parser.parse_args()
    report("synthetic", [("synthetic.py", synthetic(args.functions))])
    root = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts)[: args.stdlib]
    sources = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
            ast.parse(text)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        sources.append((str(path), text))
    report("stdlib", sources)


if __name__ == "__main__":
    main()
