"""How much time does ``automock run FILE`` add over ``python FILE``?

Targets (issue 16), as ratios of median wall times measured in the same run:

- a trivial file (``print('hello')``) with its plan present: ``automock run`` <= 3x ``python``;
- a file that runs for about 1 s under ``python``: <= 1.5x. Each of its iterations reads
  the clocks (``time.time``, ``time.monotonic``, ``datetime.now``), draws random numbers
  (``random.random``, ``randint``) and makes one HTTP GET with ``urllib.request``. Under
  ``python`` a local HTTP server in this process answers it; under ``automock run`` the
  plan's stub does (the drafted plan, the URL being a literal in the file). The program
  prints the CPU it spent in reads, HTTP calls and plain work (``getrusage``, which the
  runtime does not virtualize), so the runtime's per-call cost shows too.

Each ``automock run`` is a fresh command, as a user types it, in two ways: without a
server (``AUTOMOCK_SERVER=0``: the CLI imports, scans the plan and spawns the sandbox
child, a fresh interpreter with ASLR off) and with a warm server (``automock server start``;
the command is then a thin client, see ``automock/commands/serve.py``, whose waiting
handler holds the next run's sandbox child, started ahead: ``automock/sandbox/run/spare.py``;
the last line says which child served a few more runs). The commands alternate, so load
changes hit all alike, with a pause before each (``--pause``, default 0.5 s: what one command
leaves running, such as the server preparing its next spare, must not slow the next one
down; a person's runs are seconds apart); the load average is printed. The package is a copy with its
bytecode compiled, as ``pip install`` leaves it.

    python benchmarks/run_overhead.py [--runs 7] [--pause 0.5] [--python PATH] [--root CHECKOUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGETS = {"trivial": 3.0, "1 second": 1.5}
TRIVIAL = "print('hello')\n"
SECOND = """import datetime
import json
import random
import resource
import sys
import time
import urllib.request

URL = "http://127.0.0.1:{port}/value"


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(iterations: int, reads: int, work: int) -> None:
    total = 0.0
    spent = {{"reads": 0.0, "http": 0.0, "work": 0.0}}
    for i in range(iterations):
        t0 = cpu()
        for _ in range(reads):
            total += time.time() % 1 + time.monotonic() % 1 + random.random()
            total += random.randint(0, 9) + datetime.datetime.now().microsecond % 2
        t1 = cpu()
        with urllib.request.urlopen(f"{{URL}}?i={{i}}", timeout=5) as response:
            total += len(response.read())
        t2 = cpu()
        total += sum(k * k % 7 for k in range(work))
        t3 = cpu()
        spent["reads"] += t1 - t0
        spent["http"] += t2 - t1
        spent["work"] += t3 - t2
    print(json.dumps({{k: round(v * 1000, 1) for k, v in spent.items()}}))


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
"""
ITERATIONS, READS = 100, 50  # per second of program: 100 HTTP calls, 25,000 reads and draws


class _Answer(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b'{"value": 1.5}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def _installed_copy(tmp: Path, checkout: Path) -> Path:
    """A copy of the package with its bytecode compiled, as ``pip install`` leaves it."""
    import compileall
    import shutil

    root = tmp / "site"
    shutil.copytree(
        checkout / "automock", root / "automock", ignore=shutil.ignore_patterns("__pycache__")
    )
    compileall.compile_dir(root / "automock", quiet=1)
    return root


def _env(package_root: Path, **extra: str) -> dict[str, str]:
    """The user's environment, without anything that would change how the command starts."""
    drop = ("PYTHONHASHSEED", "AUTOMOCK_SPAWN", "PYTHONDONTWRITEBYTECODE", "AUTOMOCK_SERVER")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return {**env, "PYTHONPATH": str(package_root), **extra}


def _command(cmd: list[str], cwd: Path, env: dict[str, str]) -> Callable[[], tuple[float, bytes]]:
    """Run ``cmd`` once; its wall ms and stdout (its exit code must be 0)."""

    def go() -> tuple[float, bytes]:
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, env=env, cwd=cwd, stdin=subprocess.DEVNULL)
        wall = (time.perf_counter() - start) * 1000
        if done.returncode != 0:
            raise SystemExit(f"{cmd} failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
        return wall, done.stdout

    return go


def _alternating(
    commands: dict[str, Callable[[], tuple[float, bytes]]], runs: int, pause: float
) -> dict[str, list[tuple[float, bytes]]]:
    """Each command ``runs`` times, alternating, ``pause`` seconds before each (what a
    command leaves running after it, e.g. the server preparing its next spare, is done by
    then, as between a person's runs, and does not slow the next command down)."""
    for go in commands.values():
        go()  # page cache, plan drafted, scan cached, server warm
    results: dict[str, list[tuple[float, bytes]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, go in commands.items():
            time.sleep(pause)
            results[name].append(go())
    return results


def _calibrate(python: str, path: Path, env: dict[str, str]) -> int:
    """The ``work`` per iteration that makes ``python FILE`` run for about 1 s."""
    work = 2000
    for _ in range(4):
        run = _command(
            [python, str(path), str(ITERATIONS), str(READS), str(work)], path.parent, env
        )
        wall = min(run()[0] for _ in range(2))
        work = max(100, int(work * 1000 / max(wall, 1.0)))
    return work


def _row(name: str, results: dict[str, list[tuple[float, bytes]]], target: float) -> list[str]:
    med = {k: statistics.median(w for w, _ in v) for k, v in results.items()}
    base = med["python FILE"]
    lines = [f"{name:<9} python FILE {base:7.1f} ms"]
    for mode in [m for m in results if m != "python FILE"]:
        ratio = med[mode] / base
        verdict = "PASS" if ratio <= target else "FAIL"
        lines.append(
            f"  {mode:<26} {med[mode]:7.1f} ms = {ratio:5.2f}x python FILE "
            f"(target <= {target}x) [{verdict}]"
        )
    return lines


def _spent(results: dict[str, list[tuple[float, bytes]]]) -> str:
    """Median CPU ms the program spent in reads, HTTP calls and work, per way of running it."""
    parts = []
    for mode, runs in results.items():
        spent = [json.loads(out.decode().strip().splitlines()[-1]) for _, out in runs]
        fields = ", ".join(f"{k} {statistics.median(s[k] for s in spent):.0f}" for k in spent[0])
        parts.append(f"  {mode:<26} program CPU ms: {fields}")
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--pause", type=float, default=0.5, help="seconds before each command (default 0.5)"
    )
    parser.add_argument("--python", default=sys.executable, help="interpreter to measure")
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="checkout whose automock to measure (default this)"
    )
    options = parser.parse_args()
    runs, python = options.runs, options.python
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    with tempfile.TemporaryDirectory() as tmp:
        package_root = _installed_copy(Path(tmp), options.root)
        env = _env(package_root)
        files = {
            "trivial": Path(tmp) / "trivial" / "prog.py",
            "1 second": Path(tmp) / "second" / "prog.py",
        }
        for name, path in files.items():
            path.parent.mkdir()
            path.write_text(TRIVIAL if name == "trivial" else SECOND.format(port=port))
        work = _calibrate(python, files["1 second"], env)
        args = {"trivial": [], "1 second": [str(ITERATIONS), str(READS), str(work)]}
        automock = [python, "-m", "automock"]
        start = subprocess.run(
            [*automock, "server", "start", "--idle-timeout", "600"],
            env=env,
            cwd=tmp,
            capture_output=True,
            text=True,
        )
        print(start.stdout.strip() or start.stderr.strip()[-300:])
        serving = start.returncode == 0
        print(
            f"median of {runs} runs; {python} (python {sys.version.split()[0]}); "
            f"load avg {os.getloadavg()[0]:.1f} at start"
        )
        try:
            for name, path in files.items():
                program = [str(path), *args[name]]
                commands = {
                    "python FILE": _command([python, *program], path.parent, env),
                    "automock run, no server": _command(
                        [*automock, "run", str(path), "--", *args[name]],
                        path.parent,
                        _env(package_root, AUTOMOCK_SERVER="0"),
                    ),
                }
                if serving:
                    commands["automock run, warm server"] = _command(
                        [*automock, "run", str(path), "--", *args[name]], path.parent, env
                    )
                results = _alternating(commands, runs, options.pause)
                print("\n".join(_row(name, results, TARGETS[name])))
                if name != "trivial":
                    print(_spent(results))
            _phases(python, files["trivial"], env)
            if serving:
                _served(python, files["trivial"], env)
        finally:
            subprocess.run([*automock, "server", "stop"], env=env, cwd=tmp, capture_output=True)
            server.shutdown()
    print(f"load avg {os.getloadavg()[0]:.1f} at end")


def _phases(python: str, path: Path, env: dict[str, str]) -> None:
    """Where a no-server run's time goes, from its own JSON report."""
    done = subprocess.run(
        [python, "-m", "automock", "run", "--json", str(path)],
        capture_output=True,
        env={**env, "AUTOMOCK_SERVER": "0"},
        cwd=path.parent,
    )
    report = json.loads(done.stdout)
    parts = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in report["timings"].items())
    child = report["runs"][0]
    print(
        f"run_file phases (trivial, no server): {parts}; sandbox child start: {child['start']}, "
        f"its setup (isolation + runtime) {child['setup_seconds'] * 1000:.0f} ms"
    )


def _served(python: str, path: Path, env: dict[str, str]) -> None:
    """Which child served the warm server's runs (its spare, started ahead, or one spawned)."""
    starts = []
    for _ in range(3):
        time.sleep(0.3)  # the spare is started once no run is busy
        done = subprocess.run(
            [python, "-m", "automock", "run", "--json", str(path)],
            capture_output=True,
            env=env,
            cwd=path.parent,
        )
        starts += [run["start"] for run in json.loads(done.stdout)["runs"]]
    print(f"warm server runs' sandbox children: {', '.join(starts)}")


if __name__ == "__main__":
    main()
