"""Parent side of ``automock run``'s runs: N children under one plan, compared.

:class:`Runner` starts the first child at once (a fresh interpreter warms its
imports while the pipeline scans and drafts; see :mod:`automock.pipeline.run`),
then for each of ``repeat`` runs gives a fresh workdir copy and child the spec
(see :mod:`automock.sandbox.run.spawn` and :mod:`automock.sandbox.run.forked`).
Runs are compared for the determinism verdict: the first divergence in stdout,
then stderr, then exit code. The runner takes a :class:`~automock.plan.model.Plan`;
it never scans or drafts.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any

from automock.plan.model import Plan
from automock.sandbox.child import fresh
from automock.sandbox.kernel.addresses import padded
from automock.sandbox.kernel.environment import fixed_environment
from automock.sandbox.kernel.isolation import SANDBOX_UID, Limits, tasks_for_child
from automock.sandbox.kernel.uids import run_uid
from automock.sandbox.kernel.workdir import Workdir, make_workdir
from automock.sandbox.run import spare
from automock.sandbox.run.cassettes import CassetteFile
from automock.sandbox.run.forked import can_fork, fork_child, warm
from automock.sandbox.run.result import RunOutcome, RunSet
from automock.sandbox.run.spawn import PACKAGE_ROOT, Spawned, spawn
from automock.sandbox.run.watch import abandon, finish

__all__ = ["Runner"]


def _spawn_for(
    target: Path,
    seed: int,
    work: Workdir | None = None,
    *,
    stable: bool = False,
    ahead: bool = False,
) -> Spawned:
    """A fresh interpreter for one run, in ``work`` (default: a new copy of the tree, in this
    process's spare when it fits: :mod:`automock.sandbox.run.spare`); ``ahead``: it enters
    its namespaces before the spec (:func:`~automock.sandbox.run.spawn.spawn`).

    The interpreter starts with automock's fixed environment only: the plan's variables
    (``PYTHONPATH``, ``LD_PRELOAD``, ...) are the project's word and would act on this
    (root) start-up, before any layer is on; the child applies them once it is isolated
    (:func:`automock.sandbox.child.program.execute`)."""
    if work is None and stable:
        claimed = spare.claim(target, seed, ahead)
        if claimed is not None:
            return claimed
    work = work or make_workdir(target)
    try:
        return spawn(work, fixed_environment(work.root, seed), stable=stable, ahead=ahead)
    except BaseException:
        work.cleanup()
        raise


def _fork_for(work: Workdir, seed: int, spec: dict[str, Any]) -> Spawned | None:
    """A child forked from this (warm) process for one run in ``work``.

    None when the child's environment would not fit where ``/proc/<pid>/environ``
    shows it: the caller spawns a fresh interpreter instead. As a spawned child, it
    starts from the fixed environment only and applies the plan's variables once isolated.
    """
    try:
        env = fixed_environment(work.root, seed)
        if not fresh.environment_fits(env):
            return None
        return fork_child(work, env, spec)
    except BaseException:
        work.cleanup()
        raise


def _plan_as_seen(plan: Plan, work: Workdir) -> dict[str, Any]:
    """The plan for the child, naming the file as the program sees it however the caller
    named it, so the spec (and so the child's allocations) is the same from any directory."""
    data = plan.to_dict()
    data["source"] = {**data.get("source", {}), "path": work.script_rel}
    return data


def _spec(
    work: Workdir,
    plan: Plan,
    args: Sequence[str],
    limits: Limits,
    allow_network: bool,
    uid: int | None,
) -> dict[str, Any]:
    """The child's spec; ``uid``: the run's own (:mod:`automock.sandbox.kernel.uids`), or
    None when there is no uid drop (not root)."""
    return {
        "workdir": str(work.root),
        "script_rel": work.script_rel,
        "args": list(args),
        # the file as the program sees it, however the caller named it: the same spec bytes
        "plan": _plan_as_seen(plan, work),
        "env": dict(plan.env),
        "seed": plan.seed,
        "limits": limits.to_dict(),
        "allow_network": allow_network,
        "package_root": PACKAGE_ROOT,
        "readable": [PACKAGE_ROOT],
        **({} if uid is None else {"uid": uid}),
    }


def _ending(run: RunOutcome) -> str:
    detail = f" ({run.detail})" if run.detail else ""
    return f"{run.status}, exit code {run.exit_code}{detail}".replace("\n", " ")


def _output_diff(first: RunOutcome, other: RunOutcome, index: int) -> str:
    import difflib

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
    return ""


def _first_divergence(runs: Sequence[RunOutcome]) -> str:
    """The first run that differs from run 1, as a diff. A run that ended otherwise (a
    timeout, a crash) is named first: its output may differ only because it was cut short,
    which is no evidence about the program's randomness or clock."""
    first = runs[0]
    for index, other in enumerate(runs[1:], start=2):
        output = _output_diff(first, other, index)
        if first.status != other.status:
            status = f"--- run 1 status\n+++ run {index} status\n"
            return status + f"-{_ending(first)}\n+{_ending(other)}\n" + output
        if output:
            return output
        if first.exit_code != other.exit_code:
            return f"--- run 1 exit code\n+++ run {index} exit code\n-{first.exit_code}\n+{other.exit_code}\n"
    return ""


class Runner:
    """The runs of ``target``: the first child starts now, the plan comes later.

    ``stable_addresses`` (the default): every run is a fresh interpreter started
    with ASLR off (:mod:`automock.sandbox.kernel.addresses`), so default reprs,
    ``id()`` and sets of identity-hashed objects repeat; False allows forking.
    With ``seed`` fixed up front (it decides the child's string-hash seed), the
    runner either forks its children from this warm process (:func:`can_fork`)
    or spawns a fresh interpreter for the first run at once, so it warms up
    while the caller scans and drafts; ``ahead`` (a guess: the run says) that child enters its
    namespaces before the spec. Use as a context manager (an unused child is killed on exit).
    """

    def __init__(
        self,
        target: Path,
        seed: int,
        *,
        stable_addresses: bool = True,
        ahead: bool = False,
    ) -> None:
        self.target, self.seed = target, seed
        self.stable = stable_addresses  # a fresh interpreter per run, ASLR off: never forks
        self.forking = not stable_addresses and can_fork(seed)
        self._first = (
            None
            if self.forking
            else _spawn_for(target, seed, stable=self.stable, ahead=ahead and self.stable)
        )

    def __enter__(self) -> Runner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._first is not None:
            abandon(self._first)
            self._first = None

    def _keep_first(self, ahead: bool) -> None:
        """End the child started up front if it was started for another kind of run."""
        if self._first is not None and self._first.ahead != ahead:
            self.close()

    def run(
        self,
        plan: Plan,
        *,
        args: Sequence[str] = (),
        timeout: float = 30.0,
        limits: Limits | None = None,
        allow_network: bool = False,
        repeat: int = 1,
        readable: Sequence[str] = (),
        meanwhile: Callable[[], object] | None = None,
        observe: bool = False,
    ) -> RunSet:
        """Run the file ``repeat`` times under ``plan`` (its seed replaced by the runner's).

        ``limits=None`` uses :class:`Limits` with ``cpu_seconds = ceil(timeout) + 1``.
        The plan's cassette (a relative path is taken from the file's directory) is
        copied into each run's workdir; a recording one is copied back after each run
        (see :mod:`automock.sandbox.run.cassettes`). ``meanwhile()`` is called once, when the
        first run's program has ended (:func:`~automock.sandbox.run.watch.finish`).
        ``observe``: a drafting loop's trial run; each outcome carries the program's
        observations (:mod:`automock.runtime.observations`).
        """
        # the network is the person's explicit choice (allow_network), never the plan's
        plan = replace(plan, seed=self.seed, network="allow" if allow_network else "deny")
        limits = limits or Limits(cpu_seconds=math.ceil(timeout) + 1)
        network = allow_network
        if self.forking:
            warm()
        cassette = CassetteFile.for_plan(plan, self.target)
        ahead = self.stable and not network and not readable  # namespaces before the spec
        self._keep_first(ahead)
        outcomes: list[RunOutcome] = []
        with run_uid() as uid:  # this run's own: no other run holds it until the runs end
            for index in range(repeat):
                work = self._first.work if self._first is not None else make_workdir(self.target)
                spec = _spec(work, plan, args, limits, network, uid)
                spec["readable"] += list(readable)  # absolute, checked (readable_paths)
                if observe:
                    spec["observe"] = True
                collect = None
                if cassette is not None:  # the child sees a copy; a recording is copied back
                    staged = spec["cassette_path"] = cassette.stage(work.root)
                    spec["plan"]["cassette"]["path"] = staged
                    collect = cassette.collect if cassette.recording else None
                child = self._child(work, spec, ahead, more=index + 1 < repeat)
                outcomes.append(
                    finish(child, spec, timeout, limits, collect=collect, meanwhile=meanwhile)
                )
                meanwhile = None
        runs = tuple(outcomes)
        return RunSet(runs, _first_divergence(runs) if repeat > 1 else "")

    def _child(self, work: Workdir, spec: dict[str, Any], ahead: bool, *, more: bool) -> Spawned:
        """The child for one run in ``work`` (forked, the one started ahead, or spawned now);
        ``more``: another run follows, whose interpreter starts up while this one runs."""
        if self.forking:  # counted here, padded: the child's memory is the same whatever
            uid = spec.get("uid", SANDBOX_UID)  # else runs (a spawned child's: finish)
            spec["tasks"] = padded(tasks_for_child(uid))
        child = None
        if self.forking and threading.active_count() == 1:
            child = _fork_for(work, self.seed, spec)
        if child is None:
            child = self._first or _spawn_for(
                self.target, self.seed, work, stable=self.stable, ahead=ahead
            )
        self._first = None  # from here on, finish() owns it
        if not self.forking and more:
            self._first = _spawn_for(self.target, self.seed, stable=self.stable, ahead=ahead)
        return child
