"""A spare sandbox child: the next run's fresh interpreter, started before the run is asked for.

The warm server (:mod:`automock.commands.serve`) keeps one handler process waiting
for the next connection; that handler calls :func:`prepare` while idle, so what
does not depend on the job is done before it arrives:

* an empty workdir (:func:`~automock.sandbox.kernel.workdir.empty_workdir`, the
  same fixed-length name a run's has);
* the child interpreter, started exactly as :func:`~automock.sandbox.run.spawn.spawn`
  starts every address-stable run's (ASLR off, the same command line and
  environment shape), which imports and warms the runtime, enters its namespaces,
  then blocks reading its spec: a blocking read allocates nothing, so however long it waits its
  allocation history is that of a child spawned for the run;
* a cgroup with the default :class:`~automock.sandbox.kernel.isolation.Limits`,
  the child moved in by this (root) process: the kernel's RCU wait of that move is
  off the run's critical path.

A run's :class:`~automock.sandbox.run.process.Runner` takes it with :func:`claim`
when the spare fits (address-stable, and the environment and umask the run would start its
child with are exactly the spare's: same hash seed (a plan's variables are applied by the
child itself once isolated, never at start-up); the network denied and no ``--read`` paths,
as the child entered its namespaces for those before any run asked, as every child spawned
for such a run does: ``spawn(ahead=True)``). The file's tree is
copied into the workdir once the spec is sent (the child waits for the parent's count of
the run uid's tasks, sent after the copy, before its rlimits and uid drop:
:mod:`automock.sandbox.child.spec_pipe`), and the run goes on as with a spawned child: the
rest of the isolation (rlimits, uid drop, Landlock, seccomp) runs in the child after it has
the spec, and the parent observes every layer at the ``started`` line as for any run
(:mod:`automock.sandbox.run.watch`): the spare adds no claim of its own. A spare serves one run;
anything else (another seed, ``--no-stable-addresses``, a dead spare) starts a child as
before, and :func:`discard` ends an unused one (its workdir and cgroup removed).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from automock.sandbox.kernel import cgroup as cg
from automock.sandbox.kernel.environment import fixed_environment
from automock.sandbox.kernel.isolation import Limits
from automock.sandbox.kernel.workdir import empty_workdir, make_workdir
from automock.sandbox.run.spawn import Spawned, spawn

__all__ = ["claim", "discard", "prepare"]


@dataclass
class _Spare:
    spawned: Spawned
    env: dict[str, str]  # the environment it started with
    umask: int  # and the umask (the program sees it)
    label: str  # how a run's report says it started ("spare", "early")


_HELD: list[_Spare] = []  # this process's spare, at most one


def prepare(seed: int, label: str = "spare") -> None:
    """Start this process's spare for runs of ``seed``'s hash seed (replacing none: one only);
    ``label``: the run's ``start`` in its report (the server's spare, or ``"early"``: started
    by the ``automock run`` command as soon as it knew the seed, :mod:`automock.commands.client`)."""
    if _HELD:
        return
    work = empty_workdir()
    env = fixed_environment(work.root, seed)
    try:
        spawned = spawn(work, env, stable=True, ahead=True)
    except BaseException:
        work.cleanup()
        raise
    _HELD.append(_Spare(spawned, env, _umask(), label))
    limits = Limits()
    made = cg.create("run", limits.memory_mb, limits.processes)
    if isinstance(made, cg.Cgroup):  # else the run makes one (and says why if it cannot)
        spawned.cgroup = made
        cg.confine(spawned.proc.pid, made)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def claim(target: Path, seed: int, ahead: bool) -> Spawned | None:
    """The spare as the child of a run of ``target`` (its tree copied in once the spec is
    sent), or None if it does not fit: the run's child would start with another environment,
    or not enter its namespaces ahead (``ahead``, see :func:`spawn`), or the spare died."""
    if not _HELD:
        return None
    if not ahead:  # ended now, not when this handler ends: it would idle through the run
        discard()
        return None
    spare = _HELD[0]
    work = spare.spawned.work
    if (
        spare.spawned.proc.poll() is not None
        or fixed_environment(work.root, seed) != spare.env
        or _umask() != spare.umask
    ):
        discard()
        return None
    _HELD.clear()
    source = target.resolve()
    named = replace(work, script_rel=f"src/{source.name}")  # as make_workdir names it
    return replace(
        spare.spawned,
        work=named,
        started=time.perf_counter(),
        start=spare.label,
        fill=partial(make_workdir, source, into=work),  # after the spec: the child isolates
    )


def discard() -> None:
    """End the unused spare: kill its child, remove its workdir and cgroup."""
    from automock.sandbox.run.watch import abandon  # not before: the command's early start

    while _HELD:
        abandon(_HELD.pop().spawned)
