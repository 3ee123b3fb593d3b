"""What do address-stable runs cost, and do they repeat?

For a program printing default reprs, ``id()`` and a set of plain objects,
runs ``automock run --repeat N`` as a user would (a fresh command each time)
with the default (a fresh interpreter per run, ASLR off) and with
``--no-stable-addresses`` (runs forked from the warm command), alternating,
and prints the median wall and CPU milliseconds of each, the added ms per run,
and whether each mode's output repeated across its runs and across commands.
PASS when the stable mode repeats everywhere (the forked mode is the baseline).

    python benchmarks/address_stable.py [--runs 5] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROGRAM = """\
class Foo:
    pass

print(Foo(), object(), id(Foo()), hash(object()))
print([n.name for n in {type("N", (), {"name": i})() for i in range(12)}])
"""


def _command(path: Path, repeat: int, extra: list[str]) -> tuple[float, float, dict]:
    argv = [sys.executable, "-m", "automock", "run", "--json", "--no-save"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [*argv, "--repeat", str(repeat), *extra, str(path)], capture_output=True, text=True
    )
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    return wall, cpu, json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()
    modes = {"stable": [], "forked": ["--no-stable-addresses"]}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "addresses.py"
        path.write_text(PROGRAM)
        seen: dict[str, list[tuple[float, float, dict]]] = {m: [] for m in modes}
        _command(path, 1, [])  # warm the page and bytecode caches
        for _ in range(opts.runs):
            for mode, extra in modes.items():
                seen[mode].append(_command(path, opts.repeat, extra))
    figures = {}
    for mode, rows in seen.items():
        wall = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[1] for r in rows)
        within = all(r[2]["deterministic"] is not False for r in rows)
        across = len({r[2]["stdout"] for r in rows}) == 1
        figures[mode] = (wall, cpu, within, across)
        print(
            f"{mode:>7}: median {wall:.0f} ms wall, {cpu:.0f} ms CPU for --repeat "
            f"{opts.repeat}; repeats within a command: {within}, across commands: {across}"
        )
    added_wall = (figures["stable"][0] - figures["forked"][0]) / opts.repeat
    added_cpu = (figures["stable"][1] - figures["forked"][1]) / opts.repeat
    print(
        f"added per run: {added_wall:+.0f} ms wall, {added_cpu:+.0f} ms CPU "
        f"(CPU ratio stable/forked {figures['stable'][1] / figures['forked'][1]:.2f})"
    )
    ok = figures["stable"][2] and figures["stable"][3]
    print(f"target: stable runs repeat within and across commands: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
