"""Parent side of ``automock run``: scan, plan, run N times in the sandbox, judge.

:func:`run_file` checks the file, starts the first child at once (it warms
its imports while the parent scans and drafts), then for each of ``repeat``
runs gives a fresh workdir copy and interpreter the spec (see
:mod:`automock.sandbox.run.spawn`). Runs are compared for the determinism
verdict: the first divergence in stdout, then stderr, then exit code.
"""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from automock._sha256 import sha256
from automock._source import read_source
from automock.analysis.model import Touchpoint
from automock.errors import InputError, describe_missing
from automock.plan.model import Plan
from automock.runtime.events import Access
from automock.sandbox.child import fresh
from automock.sandbox.kernel.isolation import Limits
from automock.sandbox.kernel.workdir import Workdir, make_workdir
from automock.sandbox.run.cassettes import CassetteFile
from automock.sandbox.run.forked import can_fork, fork_child, warm
from automock.sandbox.run.result import RunOutcome, RunReport
from automock.sandbox.run.spawn import PACKAGE_ROOT, Spawned, fixed_environment, spawn
from automock.sandbox.run.watch import abandon, finish

__all__ = ["run_file", "run_source"]


def _spawn_for(
    target: Path, seed: int, env: dict[str, str] | None, work: Workdir | None = None
) -> Spawned:
    """A fresh interpreter for one run, in ``work`` (default: a new copy of the tree)."""
    work = work or make_workdir(target)
    try:
        return spawn(work, fixed_environment(work.root, seed, env))
    except BaseException:
        work.cleanup()
        raise


def _fork_for(work: Workdir, seed: int, plan: Plan, spec: dict[str, Any]) -> Spawned | None:
    """A child forked from this (warm) process for one run in ``work``.

    None when the child's environment would not fit where ``/proc/<pid>/environ``
    shows it (a plan with more variables than the restart made room for): the
    caller spawns a fresh interpreter instead.
    """
    try:
        # the plan's variables last, as a spawned child applies them after start-up
        env = {**fixed_environment(work.root, seed, dict(plan.env)), **plan.env}
        if not fresh.environment_fits(env):
            return None
        return fork_child(work, env, spec)
    except BaseException:
        work.cleanup()
        raise


def _spec(
    work: Workdir, plan: Plan, args: Sequence[str], limits: Limits, allow_network: bool
) -> dict[str, Any]:
    return {
        "workdir": str(work.root),
        "script_rel": work.script_rel,
        "args": list(args),
        "plan": plan.to_dict(),
        "env": dict(plan.env),
        "seed": plan.seed,
        "limits": limits.to_dict(),
        "allow_network": allow_network,
        "package_root": PACKAGE_ROOT,
        "readable": [PACKAGE_ROOT],
    }


class _Background:
    """Run a function in a daemon thread; :meth:`result` joins and re-raises."""

    def __init__(self, fn: Callable[[], tuple[Touchpoint, ...]]) -> None:
        self._value: tuple[Touchpoint, ...] = ()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(fn,), daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[[], tuple[Touchpoint, ...]]) -> None:
        try:
            self._value = fn()
        except BaseException as exc:
            self._error = exc

    def result(self) -> tuple[Touchpoint, ...]:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _first_divergence(runs: Sequence[RunOutcome]) -> str:
    import difflib

    first = runs[0]
    for index, other in enumerate(runs[1:], start=2):
        for name in ("stdout", "stderr"):
            a, b = getattr(first, name), getattr(other, name)
            if a != b:
                lines = difflib.unified_diff(
                    a.splitlines(keepends=True),
                    b.splitlines(keepends=True),
                    fromfile=f"run 1 {name}",
                    tofile=f"run {index} {name}",
                )
                text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
                cut = text.splitlines(keepends=True)
                return "".join(cut[:200]) + (
                    f"... ({len(cut) - 200} more diff lines)\n" if len(cut) > 200 else ""
                )
        if first.exit_code != other.exit_code:
            return f"--- run 1 exit code\n+++ run {index} exit code\n-{first.exit_code}\n+{other.exit_code}\n"
    return ""


def _scan(
    path: Path, source: str, cache_dir: str | os.PathLike[str] | None = None
) -> tuple[Touchpoint, ...]:
    """The static touchpoints; with ``cache_dir`` reused by content hash (a hit needs no libcst)."""
    from automock.analysis.cache import DiskCache

    disk = DiskCache(cache_dir) if cache_dir is not None else None
    if disk is not None:  # a hit: neither the scanner nor libcst is imported
        with contextlib.suppress(OSError):
            hit = disk.get(sha256(path.read_bytes()).hexdigest(), str(path))
            if hit is not None:
                return hit
    try:
        from automock.analysis.scanner import scan_file, scan_source
    except ImportError:
        return ()
    if disk is None or cache_dir is None:
        return tuple(scan_source(source, str(path)).touchpoints)
    scan = scan_file(path, cache_dir=cache_dir)
    if scan.error is None and scan.sha256 and disk.get(scan.sha256, str(path)) is None:
        disk.put(scan.sha256, scan.touchpoints)  # an in-memory hit (the drafter's scan) skips disk
    return tuple(scan.touchpoints)


def _default_plan(path: Path, touchpoints: tuple[Touchpoint, ...], seed: int) -> tuple[Plan, str]:
    """The rules drafter's plan; with no touchpoints the bare default (no drafter import)."""
    if not touchpoints:
        digest = sha256(path.read_bytes()).hexdigest()
        return Plan(source_path=str(path), source_sha256=digest, seed=seed), "default"
    from automock.drafting import draft

    return draft(str(path), drafter="rules", touchpoints=touchpoints, seed=seed), "drafted (rules)"


def _check_file(path: str | os.PathLike[str]) -> tuple[Path, str]:
    target = Path(path)
    if not target.exists():
        raise InputError(
            f"{target}: {describe_missing(target)}; give the path of a Python file to run"
        )
    if not target.is_file():
        raise InputError(f"{target}: not a file; give the path of a Python file to run")
    source = read_source(target)
    try:
        compile(source, str(target), "exec", dont_inherit=True)
    except SyntaxError as exc:
        where = f"{target}:{exc.lineno}" if exc.lineno else str(target)  # NUL bytes: no line
        raise InputError(f"{where}: syntax error ({exc.msg}); fix the file and retry") from None
    return target, source


def run_file(
    path: str | os.PathLike[str],
    plan: Plan | None = None,
    *,
    args: Sequence[str] = (),
    timeout: float = 30.0,
    limits: Limits | None = None,
    seed: int | None = None,
    allow_network: bool = False,
    repeat: int = 1,
    plan_label: str = "",
    cache_dir: str | os.PathLike[str] | None = None,
) -> RunReport:
    """Run ``path`` as ``__main__`` in the sandbox ``repeat`` times and report.

    ``plan=None`` drafts one (rules drafter, else :func:`default_plan_for`);
    ``seed`` overrides the plan's seed. The plan's cassette (a relative path is
    taken from the file's directory) is copied into each run's workdir; a
    recording one (``record_mode`` other than ``none``) is copied back after
    each run (see :mod:`automock.sandbox.run.cassettes`). ``limits=None`` uses :class:`Limits`
    with ``cpu_seconds = ceil(timeout) + 1``. ``cache_dir`` (e.g. ``.automock-cache``) keeps
    the static scan by content hash, so an unchanged file is not parsed again.
    """
    t0 = time.perf_counter()
    target, source = _check_file(path)
    if repeat < 1:
        raise InputError(f"--repeat {repeat}: expected a number of runs >= 1")
    if timeout <= 0:
        raise InputError(f"--timeout {timeout}: expected a number of seconds > 0")
    run_seed = seed if seed is not None else (plan.seed if plan is not None else 0)
    forking = can_fork(run_seed)
    # a fresh interpreter warms up while we scan and draft; a forked child needs the plan first
    first = None if forking else _spawn_for(target, run_seed, dict(plan.env) if plan else None)
    scanning = None
    try:
        if plan is not None and not forking:  # only the report needs them: scan meanwhile
            scanning = _Background(lambda: _scan(target, source, cache_dir))
        else:  # the drafter needs them first, or no thread may run while we fork
            touchpoints = _scan(target, source, cache_dir)  # (a cache hit costs no libcst)
        t_scan = time.perf_counter()
        if plan is None:
            plan, plan_label = _default_plan(target, touchpoints, run_seed)
        plan = replace(plan, seed=run_seed)
        if allow_network:  # a person's explicit choice: no namespace, the runtime lets it through
            plan = replace(plan, network="allow")
        limits = limits or Limits(cpu_seconds=math.ceil(timeout) + 1)
        network = allow_network or plan.network == "allow"
        if forking:
            warm()
        t_plan = time.perf_counter()
        cassette = CassetteFile.for_plan(plan, target)
        outcomes: list[RunOutcome] = []
        for _ in range(repeat):
            work = first.work if first is not None else make_workdir(target)
            spec = _spec(work, plan, args, limits, network)
            collect = None
            if cassette is not None:  # the child sees a copy; a recording is copied back
                staged = spec["cassette_path"] = cassette.stage(work.root)
                spec["plan"]["cassette"]["path"] = staged
                collect = cassette.collect if cassette.recording else None
            child = None
            if forking and threading.active_count() == 1:
                child = _fork_for(work, run_seed, plan, spec)
            if child is None:
                child = first or _spawn_for(target, run_seed, dict(plan.env), work)
            first = None
            outcomes.append(finish(child, spec, timeout, limits, collect=collect))
    finally:
        if first is not None:
            abandon(first)
        if scanning is not None:
            touchpoints = scanning.result()
    runs = tuple(outcomes)
    t_runs = time.perf_counter()
    accesses: list[Access] = []
    for run in runs:
        accesses += [a for a in run.accesses if a not in accesses]
    one = runs[0]
    diff = _first_divergence(runs) if repeat > 1 else ""
    return RunReport(
        file=str(path),
        exit_code=one.exit_code,
        status=one.status,
        stdout=one.stdout,
        stderr=one.stderr,
        touchpoints=touchpoints,
        accesses=tuple(accesses),
        unmocked=tuple(a for a in accesses if not a.mocked),
        layers=one.layers,
        runs=runs,
        deterministic=(not diff) if repeat > 1 else None,
        diff=diff,
        timings={
            "scan": t_scan - t0,
            "plan": t_plan - t_scan,
            "runs": t_runs - t_plan,
            "total": t_runs - t0,
        },
        seed=plan.seed,
        plan=plan_label,
        detail=one.detail,
        report_problem="; ".join(
            f"run {i}: {r.report_problem}" if repeat > 1 else r.report_problem
            for i, r in enumerate(runs, start=1)
            if r.report_problem
        ),
    )


def run_source(source: str, plan: Plan | None = None, **kwargs: Any) -> RunReport:
    """Like :func:`run_file` for source text (written to a temp ``program.py``)."""
    with tempfile.TemporaryDirectory(prefix="automock-src-") as tmp:
        target = Path(tmp) / "program.py"
        target.write_text(source, encoding="utf-8")
        report = run_file(target, plan, **kwargs)
    return replace(report, file="<string>")
