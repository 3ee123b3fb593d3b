"""``automock run`` as a library call: check the file, scan it, plan it, run it, report.

:func:`run_file` starts the sandbox's first child at once (a fresh interpreter
warms up while this process scans and drafts: :class:`~automock.sandbox.run.process.Runner`),
scans the source (in the background when the plan is already known and no
child will be forked from this process), drafts a plan with the offline rules
when none is given, runs the file ``repeat`` times and composes the
:class:`~automock.report.RunReport`.
"""

from __future__ import annotations

import contextlib
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
from automock.plan.rights import check_rights
from automock.report import RunReport
from automock.sandbox.kernel.isolation import Limits
from automock.sandbox.kernel.landlock import readable_paths
from automock.sandbox.run.process import Runner

__all__ = ["run_file", "run_source"]


class _Background:
    """Run a function in a daemon thread once :meth:`start`-ed; :meth:`result` joins (starts it
    if nobody did) and re-raises."""

    def __init__(self, fn: Callable[[], tuple[Touchpoint, ...]]) -> None:
        self._value: tuple[Touchpoint, ...] = ()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(fn,), daemon=True)

    def start(self) -> None:
        if self._thread.ident is None:
            self._thread.start()

    def _run(self, fn: Callable[[], tuple[Touchpoint, ...]]) -> None:
        try:
            self._value = fn()
        except BaseException as exc:
            self._error = exc

    def result(self) -> tuple[Touchpoint, ...]:
        self.start()
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _scan(
    path: Path, source: str, cache_dir: str | os.PathLike[str] | None = None
) -> tuple[Touchpoint, ...]:
    """The static touchpoints of the program: the file's, then its project modules'.

    With ``cache_dir`` each file's are reused by content hash (a hit needs no libcst).
    """
    own = _scan_entry(path, source, cache_dir)
    try:
        from automock.analysis.project import discover_project
    except ImportError:
        return own
    if len(discover_project(path).modules) == 1:  # a single file: nothing more to follow
        return own
    from automock.analysis.follow import scan_project

    project = scan_project(path, cache_dir=cache_dir)
    entry, *others = project.result.files
    return (*entry.touchpoints, *(t for f in others for t in f.touchpoints))


def _scan_entry(
    path: Path, source: str, cache_dir: str | os.PathLike[str] | None = None
) -> tuple[Touchpoint, ...]:
    """The file's own static touchpoints."""
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
    """The rules drafter's plan (of the whole project); with no touchpoints the bare default."""
    if not touchpoints:
        digest = sha256(path.read_bytes()).hexdigest()
        return Plan(source_path=str(path), source_sha256=digest, seed=seed), "default"
    from automock.drafting import draft

    if all(t.path == str(path) for t in touchpoints):
        return draft(
            str(path), drafter="rules", touchpoints=touchpoints, seed=seed
        ), "drafted (rules)"
    return draft(str(path), drafter="rules", seed=seed), "drafted (rules)"


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


def _check_inputs(
    repeat: int, timeout: float, plan: Plan | None, label: str, network: bool, record: bool
) -> None:
    """Numbers in range, and a plan that does not widen the run (a ``PlanError`` naming the
    flag: ``"network": "allow"`` without ``allow_network``, a recording without ``record``)."""
    check_rights(plan, label or "plan", allow_network=network, record=record)
    if repeat < 1:
        raise InputError(f"repeat={repeat} (--repeat): expected a number of runs >= 1")
    if timeout <= 0:
        raise InputError(f"timeout={timeout} (--timeout): expected a number of seconds > 0")


def run_file(
    path: str | os.PathLike[str],
    plan: Plan | None = None,
    *,
    args: Sequence[str] = (),
    timeout: float = 30.0,
    limits: Limits | None = None,
    seed: int | None = None,
    allow_network: bool = False,
    record: bool = False,
    repeat: int = 1,
    plan_label: str = "",
    cache_dir: str | os.PathLike[str] | None = None,
    readable: Sequence[str | os.PathLike[str]] = (),
    stable_addresses: bool = True,
    observe: bool = False,
) -> RunReport:
    """Run ``path`` as ``__main__`` in the sandbox ``repeat`` times and report.

    ``plan=None`` drafts one (rules; the bare default plan when the scan finds nothing);
    ``seed`` overrides the plan's. ``limits=None``: ``Limits(cpu_seconds=ceil(timeout) + 1)``.
    ``cache_dir`` (``.automock-cache``) keeps the scan by content hash; ``readable``: what the
    program may read besides the interpreter, sys.path, system libraries, its workdir;
    ``stable_addresses=False``: runs may fork; ``observe``: a drafting loop's trial."""
    t0 = time.perf_counter()
    target, source = _check_file(path)
    _check_inputs(repeat, timeout, plan, plan_label, allow_network, record)
    run_seed = seed if seed is not None else (plan.seed if plan is not None else 0)
    scanning, extra = None, readable_paths(readable)
    ahead = not (allow_network or extra)  # the child enters its namespaces before the spec
    with Runner(target, run_seed, stable_addresses=stable_addresses, ahead=ahead) as runner:
        try:
            if plan is not None and not runner.forking:  # the report needs them: as it ends
                scanning = _Background(lambda: _scan(target, source, cache_dir))
            else:  # the drafter needs them first, or no thread may run while we fork
                touchpoints = _scan(target, source, cache_dir)  # (a cache hit costs no libcst)
            t_scan = time.perf_counter()
            if plan is None:
                plan, plan_label = _default_plan(target, touchpoints, run_seed)
            t_plan = time.perf_counter()
            runs = runner.run(
                plan,
                args=args,
                timeout=timeout,
                limits=limits,
                allow_network=allow_network,
                repeat=repeat,
                readable=extra,
                meanwhile=scanning.start if scanning is not None else None,
                observe=observe,
            )
        finally:
            if scanning is not None:
                touchpoints = scanning.result()
    t_runs = time.perf_counter()
    timings = {"scan": t_scan - t0, "plan": t_plan - t_scan, "runs": t_runs - t_plan}
    timings["total"] = t_runs - t0
    return RunReport.of(
        str(path), runs, touchpoints, seed=run_seed, plan=plan_label, timings=timings
    )


def run_source(source: str, plan: Plan | None = None, **kwargs: Any) -> RunReport:
    """Like :func:`run_file` for source text (written to a temp ``program.py``)."""
    with tempfile.TemporaryDirectory(prefix="automock-src-") as tmp:
        target = Path(tmp) / "program.py"
        target.write_text(source, encoding="utf-8")
        report = run_file(target, plan, **kwargs)
    return replace(report, file="<string>")
