"""Soak test of the batch pool: many mixed candidates, then count what leaked.

Runs N candidates (default 10,000) through one warm :class:`WorkerPool` in
chunks: passing, failing, crashing (exception, ``os.abort``, segfault),
timing out (a real ``select`` sleep the virtual clock does not cover), and
leaving a forked child behind. After every chunk it samples the parent's RSS,
open fds and children; at the end it reports

- leaked processes: live processes carrying this run's marker, plus live
  children of this process;
- leaked fds: open fds of this process versus before the first chunk;
- leaked temp dirs: entries left in the run's private ``$TMPDIR`` versus before;
- RSS growth of the parent from the end of the first chunk (warm) to the end.

Targets: nothing leaked, RSS growth under 10 %. Exit status 1 when a target is
missed. Usage::

    python benchmarks/soak.py --n 1000 [--workers 2] [--timeout 0.5] [--chunk 500] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from automock.sandbox.batch.pool import BatchSettings, WorkerPool

MIX: tuple[tuple[str, int], ...] = (
    # (kind, weight out of 100)
    ("pass", 55),
    ("fail_assert", 10),
    ("fail_exit", 8),
    ("crash_exception", 8),
    ("crash_abort", 3),
    ("crash_segfault", 3),
    ("leave_child", 10),
    ("timeout", 3),
)


def candidate(kind: str, i: int, marker: str) -> str:
    name = f"import ctypes; ctypes.CDLL(None).prctl(15, {marker!r}.encode(), 0, 0, 0)\n"
    body = {
        "pass": f"import random, time\nprint({i}, random.random(), time.time())\n",
        "fail_assert": f"assert {i} < 0, 'candidate {i} is wrong'\n",
        "fail_exit": "import sys\nprint('bye')\nsys.exit(3)\n",
        "crash_exception": "def f(n):\n    return f(n + 1)\nf(0)\n",  # RecursionError
        "crash_abort": "import os\nos.abort()\n",
        "crash_segfault": "import ctypes\nctypes.string_at(0)\n",
        "leave_child": name
        + "import os, select\nif os.fork() == 0:\n    select.select([], [], [], 600)\nprint('parent done')\n",
        "timeout": name + "import select\nselect.select([], [], [], 600)\n",
    }[kind]
    return body


def schedule(n: int) -> list[str]:
    kinds = [kind for kind, weight in MIX for _ in range(weight)]
    return [kinds[(i * 37) % len(kinds)] for i in range(n)]  # spread evenly, deterministic


def rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def live_processes(marker: str) -> list[int]:
    found = []
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text(errors="replace")
        except OSError:
            continue
        comm = stat[stat.find("(") + 1 : stat.rfind(")")]
        fields = stat[stat.rfind(")") + 2 :].split()
        if fields[0] in ("Z", "X"):
            continue
        if marker in comm or int(fields[1]) == me:
            found.append(int(entry))
    return found


def temp_entries() -> set[str]:
    """Everything in this run's private temp dir (so concurrent automock users do not count)."""
    return {p.name for p in Path(tempfile.gettempdir()).iterdir()}


def soak(n: int, workers: int, timeout: float, chunk: int) -> dict[str, Any]:
    marker = "soak" + secrets.token_hex(5)
    kinds = schedule(n)
    fds_before, temps_before = open_fds(), temp_entries()
    statuses: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = {}
    samples: list[dict[str, float]] = []
    started = time.perf_counter()
    settings = BatchSettings(timeout=timeout, seed=0)
    with WorkerPool(settings, workers=workers) as pool:
        for lo in range(0, n, chunk):
            batch = kinds[lo : lo + chunk]
            results = _run(pool, [candidate(k, lo + j, marker) for j, k in enumerate(batch)])
            for kind, result in zip(batch, results, strict=True):
                statuses[result.status] += 1
                by_kind.setdefault(kind, Counter())[result.status] += 1
            samples.append(
                {
                    "done": lo + len(batch),
                    "rss_kib": rss_kib(),
                    "fds": open_fds(),
                    "elapsed_s": round(time.perf_counter() - started, 2),
                }
            )
            print(
                f"  {samples[-1]['done']:>6} done  rss {samples[-1]['rss_kib']:>7} KiB  "
                f"fds {samples[-1]['fds']:>3}  {samples[-1]['elapsed_s']:>7.1f} s",
                file=sys.stderr,
                flush=True,
            )
    elapsed = time.perf_counter() - started
    time.sleep(0.5)  # SIGKILL delivery and reaping are asynchronous
    leaked = live_processes(marker)
    warm_rss = samples[0]["rss_kib"]
    final_rss = samples[-1]["rss_kib"]
    growth = (final_rss - warm_rss) / warm_rss * 100 if warm_rss else 0.0
    leaked_temps = sorted(temp_entries() - temps_before)
    return {
        "n": n,
        "workers": workers,
        "timeout_s": timeout,
        "elapsed_s": round(elapsed, 1),
        "candidates_per_s": round(n / elapsed, 1),
        "statuses": dict(statuses),
        "by_kind": {k: dict(v) for k, v in sorted(by_kind.items())},
        "leaked_processes": leaked,
        "fds_before": fds_before,
        "fds_after": open_fds(),
        "leaked_temp_dirs": leaked_temps,
        "rss_warm_kib": warm_rss,
        "rss_final_kib": final_rss,
        "rss_growth_pct": round(growth, 2),
        "samples": samples,
    }


def _run(pool: WorkerPool, sources: Sequence[str]) -> list[Any]:
    from automock.sandbox.batch.candidates import as_candidates

    return pool.run(as_candidates(list(sources)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000, help="candidates to run (default 10000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=0.5, help="per-candidate timeout, s")
    parser.add_argument("--chunk", type=int, default=500, help="candidates per pool.run call")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    args = parser.parse_args(argv)
    private = tempfile.mkdtemp(prefix="automock-soak-")
    os.environ["TMPDIR"] = tempfile.tempdir = private
    try:
        result = soak(args.n, args.workers, args.timeout, args.chunk)
    finally:
        shutil.rmtree(private, ignore_errors=True)
    ok = (
        not result["leaked_processes"]
        and result["fds_after"] <= result["fds_before"]
        and not result["leaked_temp_dirs"]
        and result["rss_growth_pct"] < 10.0
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"candidates         {result['n']} on {result['workers']} workers, timeout {result['timeout_s']} s"
        )
        print(
            f"elapsed            {result['elapsed_s']} s ({result['candidates_per_s']} candidates/s)"
        )
        print(f"statuses           {result['statuses']}")
        for kind, counts in result["by_kind"].items():
            print(f"  {kind:<16} {counts}")
        print(
            f"leaked processes   {len(result['leaked_processes'])} {result['leaked_processes'][:10]}"
        )
        print(f"parent fds         {result['fds_before']} before, {result['fds_after']} after")
        print(
            f"leaked temp dirs   {len(result['leaked_temp_dirs'])} {result['leaked_temp_dirs'][:5]}"
        )
        print(
            f"parent RSS         {result['rss_warm_kib']} KiB warm -> {result['rss_final_kib']} KiB "
            f"({result['rss_growth_pct']:+.2f} %)"
        )
        print(
            "verdict            " + ("PASS (nothing leaked, RSS growth < 10 %)" if ok else "FAIL")
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
