"""Where a served ``automock run`` of a trivial file spends its wall time, phase by phase.

For each checkout given (``--root``, default this one; give two to compare, e.g. a
``git worktree`` of an earlier commit), the script copies its package into a temporary
directory, inserts a real-clock mark (``time.monotonic`` as imported before the runtime
replaces it, appended to one file by every process: client, server, handler, sandbox
child) at fixed places of the source, compiles it, starts a warm server for each copy and
runs ``print('hello')`` through each in turn, ``--runs`` times, ``--pause`` seconds apart.
It prints the median milliseconds of each phase and of the wall (measured here, as in
``run_overhead.py``). The marks cost a few microseconds each; compare the copies with each
other, and take ``run_overhead.py`` for the figures against ``python FILE``.

A mark whose anchor is not in a checkout's source (the code moved) is reported and that
phase left blank for it.

    python benchmarks/served_phases.py [--runs 21] [--pause 0.5] [--root CHECKOUT ...]
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_MARK_MODULE = """import os, time
_now = time.monotonic
_fd = []
def mark(label):
    if not _fd:  # opened once, before the sandbox child isolates itself
        _fd.append(os.open(MARKS, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o666))
    os.write(_fd[0], ("%.6f %s\\n" % (_now(), label)).encode())
"""
# (file, text of the line the mark goes before, label): the first mark of a label counts
_ANCHORS = [
    ("commands/client.py", "conn.send(_request(argv), fds=_stdio())", "request"),
    ("commands/serve.py", "if not _seed_matches(message[", "handler"),
    ("commands/serve.py", 'code = dispatch(message["argv"], _PARSERS)', "dispatch"),
    ("sandbox/run/process.py", "spec = _spec(work, plan, args, limits, network)", "spec"),
    ("sandbox/child/program.py", "warm_up()\n    sys.pycache_prefix", "child_started"),
    ("sandbox/child/program.py", "layers = enter_isolation(", "child_spec"),
    ("sandbox/child/program.py", "started_msg = {", "isolated"),
    ("sandbox/run/watch.py", "self.go()\n\n    def go", "go"),
    ("sandbox/child/program.py", '_write_message(result_fd, {"phase": "done"', "done"),
    ("sandbox/run/watch.py", "oom_kills = observer.cgroup.oom_kills()", "reaped"),
]
_PHASES = [
    ("client: start, imports, connect, request sent", "launch", "request"),
    ("server hop, handler: request checked, client taken", "request", "handler"),
    ("handler: the plan's seed checked", "handler", "dispatch"),
    ("parse, plan, Runner (spare claimed), spec built", "dispatch", "spec"),
    ("spec sent, child has it", "spec", "child_spec"),
    ("child: spec -> isolated (started line)", "child_spec", "isolated"),
    ("parent observes, go", "isolated", "go"),
    ("go -> program ran -> done message", "go", "done"),
    ("child's ending, pipes closed, reaped", "done", "reaped"),
    ("report, exit code, client exits", "reaped", "exited"),
]
_CALL = "__import__('automock._marks').__dict__['_marks'].mark"


def _instrumented(checkout: Path, dest: Path, marks: Path) -> list[str]:
    """A marked copy of ``checkout``'s package under ``dest`` (marks appended to ``marks``);
    the anchors not found."""
    package = dest / "automock"
    shutil.copytree(checkout / "automock", package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "_marks.py").write_text(f"MARKS = {str(marks)!r}\n{_MARK_MODULE}")
    missing = []
    for rel, anchor, label in _ANCHORS:
        path = package / rel
        text = path.read_text()
        at = text.find(anchor)
        if at < 0:
            missing.append(f"{rel}: {anchor.strip()}")
            continue
        start = text.rfind("\n", 0, at) + 1
        indent = re.match(r"\s*", text[start:at])
        line = f"{indent[0] if indent else ''}{_CALL}({label!r})\n"
        path.write_text(text[:start] + line + text[start:])
    compileall.compile_dir(package, quiet=1)
    return missing


def _env(site: Path) -> dict[str, str]:
    drop = ("PYTHONHASHSEED", "AUTOMOCK_SPAWN", "PYTHONDONTWRITEBYTECODE", "AUTOMOCK_SERVER")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return {**env, "PYTHONPATH": str(site)}


def _one(env: dict[str, str], prog: Path, marks: Path) -> dict[str, float]:
    """The marks of one served run, in ms since its launch."""
    marks.write_text("")
    os.chmod(marks, 0o666)  # the sandbox child writes as root, then keeps its descriptor
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "automock", "run", str(prog)],
        env=env,
        cwd=prog.parent,
        capture_output=True,
        stdin=subprocess.DEVNULL,
    )
    found = {"launch": 0.0, "exited": (time.monotonic() - start) * 1000}
    if done.returncode != 0:
        raise SystemExit(f"the served run failed: {done.stderr.decode()[-2000:]}")
    time.sleep(0.05)  # the child's last mark may follow its exit status
    for line in marks.read_text().splitlines():
        at, label = line.split(" ", 1)
        found.setdefault(label, (float(at) - start) * 1000)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--pause", type=float, default=0.5)
    parser.add_argument("--root", type=Path, action="append", help="checkout (repeatable)")
    options = parser.parse_args()
    roots = options.root or [ROOT]
    with tempfile.TemporaryDirectory() as tmp:
        prog, marks = Path(tmp) / "run" / "prog.py", Path(tmp) / "marks.log"
        prog.parent.mkdir()
        prog.write_text("print('hello')\n")
        envs = []
        for index, root in enumerate(roots):
            for gone in _instrumented(root, Path(tmp) / f"site{index}", marks):
                print(f"{root}: no mark at {gone}")
            envs.append(_env(Path(tmp) / f"site{index}"))
            subprocess.run(
                [sys.executable, "-m", "automock", "server", "start", "--idle-timeout", "300"],
                env=envs[-1],
                cwd=tmp,
                capture_output=True,
                check=True,
            )
        print(f"load avg {os.getloadavg()[0]:.1f} at start; median of {options.runs} runs")
        runs: list[list[dict[str, float]]] = [[] for _ in roots]
        try:
            for index in range(options.runs + 2):  # two to warm up
                for env, kept in zip(envs, runs, strict=True):
                    time.sleep(options.pause)
                    found = _one(env, prog, marks)
                    if index >= 2:
                        kept.append(found)
        finally:
            for env in envs:
                subprocess.run(
                    [sys.executable, "-m", "automock", "server", "stop"],
                    env=env,
                    cwd=tmp,
                    capture_output=True,
                )
    _table(roots, runs)
    print(f"load avg {os.getloadavg()[0]:.1f} at end")


def _table(roots: list[Path], runs: list[list[dict[str, float]]]) -> None:
    print(f"{'phase (ms)':<52}" + "".join(f"{r.name[:12]:>13}" for r in roots))
    for name, first, last in [*_PHASES, ("total (the wall)", "launch", "exited")]:
        cells = []
        for kept in runs:
            spans = [m[last] - m[first] for m in kept if first in m and last in m]
            cells.append(f"{statistics.median(spans):13.1f}" if spans else f"{'-':>13}")
        print(f"{name:<52}" + "".join(cells))


if __name__ == "__main__":
    main()
