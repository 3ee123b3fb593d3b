"""How much time does ``automock run`` add over ``python file.py``?

Prints, for a trivial file and a time+random file, the median wall time and
CPU time (user+sys of the process and its children) of ``python FILE`` and
of ``python -m automock run FILE`` (a fresh CLI process each time, as a user
would call it, with the plan and scan cache already in place from a first
run), the added milliseconds of each, and PASS/FAIL against the 150 ms
target. The two commands alternate, so load changes hit both alike. Then the
cost of the isolation layers alone (fork + ``enter_isolation`` + exit vs
fork + exit) and where ``run_file``'s time goes. All baselines are measured
in the same run; absolute figures depend on the machine and its load (on a
busy machine trust the CPU figures, not the wall ones). The added CPU is
also printed as a multiple of ``python FILE``'s CPU in the same run: that
ratio stays put when the machine's speed drifts, the milliseconds do not.

    python benchmarks/run_overhead.py [--runs 9] [--python PATH]

``--python`` measures another interpreter (e.g. a virtualenv's, with automock's
dependencies installed there); automock itself still comes from this checkout.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_MS = 150.0
PROGRAMS = {
    "trivial": "print('hello')\n",
    "time+random": "import random, time\nprint(time.time(), random.random())\n",
}


def _median_ms(fn: Callable[[], object], runs: int) -> float:
    return _medians(fn, runs)[0]


def _medians(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall ms and median CPU ms (user+sys of all waited-for descendants)."""
    fn()  # warm the page cache
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def _env(package_root: Path) -> dict[str, str]:
    """The user's environment, without anything that would change how the command starts."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHASHSEED", "AUTOMOCK_SPAWN")}
    env["PYTHONPATH"] = str(package_root)
    return env


def _command(cmd: list[str], package_root: Path) -> Callable[[], tuple[float, float]]:
    """Run ``cmd`` once; return its wall and CPU (user+sys, with its children) in ms."""
    env = _env(package_root)

    def go() -> tuple[float, float]:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=package_root,
        )
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0
        return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000

    return go


def _paired(
    plain: Callable[[], tuple[float, float]],
    wrapped: Callable[[], tuple[float, float]],
    runs: int,
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median (wall, CPU) ms of each, the two alternating (after one warm-up call each)."""
    plain(), wrapped()  # page cache; the first automock run drafts the plan and fills the cache
    a, b = [], []
    for _ in range(runs):
        a.append(plain())
        b.append(wrapped())
    med = statistics.median
    return (med(x[0] for x in a), med(x[1] for x in a)), (
        med(x[0] for x in b),
        med(x[1] for x in b),
    )


def _verdict(added: float) -> str:
    return "PASS" if added <= TARGET_MS else "FAIL"


def _installed_copy(tmp: Path) -> Path:
    """A copy of the package with its bytecode compiled, as ``pip install`` leaves it."""
    import compileall
    import shutil

    root = tmp / "site"
    shutil.copytree(
        ROOT / "automock", root / "automock", ignore=shutil.ignore_patterns("__pycache__")
    )
    compileall.compile_dir(root / "automock", quiet=1)
    return root


def _fork_with(setup: Callable[[], object] | None) -> Callable[[], object]:
    def go() -> None:
        pid = os.fork()
        if pid == 0:
            if setup is not None:
                setup()
            os._exit(0)
        os.waitpid(pid, 0)

    return go


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--python", default=sys.executable, help="interpreter to measure")
    options = parser.parse_args()
    runs, python = options.runs, options.python
    print(
        f"median of {runs} runs; {python} (python {sys.version.split()[0]}); "
        f"load avg {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        package_root = _installed_copy(Path(tmp))
        for name, source in PROGRAMS.items():
            path = Path(tmp) / name.replace("+", "_") / "prog.py"
            path.parent.mkdir()
            path.write_text(source)
            (plain, plain_cpu), (wrapped, wrapped_cpu) = _paired(
                _command([python, str(path)], package_root),
                _command([python, "-m", "automock", "run", str(path)], package_root),
                runs,
            )
            wall_added, cpu_added = wrapped - plain, wrapped_cpu - plain_cpu
            print(
                f"{name:<12} python {plain:6.1f} ms wall {plain_cpu:6.1f} ms CPU | "
                f"automock run {wrapped:6.1f} ms wall {wrapped_cpu:6.1f} ms CPU | "
                f"added {wall_added:6.1f} ms wall [{_verdict(wall_added)}], "
                f"{cpu_added:6.1f} ms CPU [{_verdict(cpu_added)}] (target <= {TARGET_MS:.0f} ms)"
                f" = {cpu_added / plain_cpu:4.1f} x python FILE's CPU"
            )

        import json

        probe = Path(tmp) / "trivial" / "prog.py"
        done = subprocess.run(
            [python, "-m", "automock", "run", "--json", str(probe)],
            capture_output=True,
            env=_env(package_root),
            cwd=package_root,
        )
        starts = [r["start"] for r in json.loads(done.stdout)["runs"]]
        print(f"the command's sandbox child: {starts[0]} (fork = forked from the warm command)")

        from automock.pipeline.run import run_file
        from automock.sandbox.kernel.isolation import Limits, enter_isolation

        work = Path(tmp) / "work"
        work.mkdir()
        bare = _median_ms(_fork_with(None), runs)
        full = _median_ms(
            _fork_with(lambda: enter_isolation(Limits(), allow_network=False, workdir=work)), runs
        )
        no_pid = _median_ms(
            _fork_with(
                lambda: enter_isolation(
                    Limits(), allow_network=False, workdir=work, pid_namespace=False
                )
            ),
            runs,
        )
        print(
            f"isolation    fork+exit {bare:5.1f} ms | +all layers {full - bare:5.1f} ms | "
            f"+all but the PID namespace {no_pid - bare:5.1f} ms"
        )
        trivial = Path(tmp) / "trivial" / "prog.py"
        report = run_file(trivial)
        parts = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in report.timings.items())
        setup = report.runs[0].setup_seconds * 1000
        print(f"run_file     {parts}; child setup (isolation + runtime) {setup:.0f} ms")
        print(
            "bubblewrap:",
            "installed" if _which("bwrap") else "not installed (mount namespace used instead)",
        )


def _which(name: str) -> bool:
    import shutil

    return shutil.which(name) is not None


if __name__ == "__main__":
    main()
