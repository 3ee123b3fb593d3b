"""Python interpreters a program starts follow its plan: the same runtime, a derived seed.

Inside :class:`followed_children` (the sandbox enters it around the program),
a Python interpreter the program starts runs under the same plan as the
program, with the seed ``derive(seed, "child interpreter", n)`` for the n-th
interpreter this process starts (0, 1, ...), so a program whose children start
in a fixed order repeats. That covers ``subprocess`` (``Popen`` and everything
built on it) running ``sys.executable`` or a ``python``/``python3.X`` found on
``PATH``, and multiprocessing's ``spawn`` and ``forkserver`` start methods
(``multiprocessing.util.spawnv_passfds``), hence ``ProcessPoolExecutor`` and
``multiprocessing.Pool`` with those. Forked workers (the ``fork`` start
method) keep the runtime they were forked with.

How: the child's environment (only a Python child's) gets ``PYTHONPATH``
pointing first at ``automock/runtime/_site``, whose ``sitecustomize`` reads
:data:`ENV_PLAN` (a plan file written by the sandbox into the workdir),
:data:`ENV_SEED` and :data:`ENV_ROOT`, removes them and its own directory, puts
``PYTHONPATH`` back as the program gave it, and enters the runtime
(:func:`enter_child`) before the child's own code runs. None of this grants
anything: the child is in the same sandbox (namespaces, seccomp, Landlock,
limits are inherited across ``exec``), and a program that sets these
variables itself can only choose the mocks of its own children.

Not followed (recorded as unmocked ``process`` accesses, as any other
program): an interpreter started with ``-I``, ``-E`` or ``-S`` (it ignores
``PYTHONPATH`` or ``sitecustomize``), or through ``os.system``/``os.exec*``/
``os.posix_spawn``. A child's own accesses are not in the parent's report.

``ProcessPoolExecutor.submit`` (and ``map``) also seed each *task*:
``derive(seed, "process pool task", pool, n)`` for the n-th task of the
program's pool-th executor, applied in the worker just before the task runs,
so what a task draws does not depend on which worker ran it; likewise the
tasks of ``multiprocessing.Pool``'s ``map``/``imap``/``starmap`` (a chunk of
``map`` is one task): ``derive(seed, "multiprocessing task", job, index)``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from automock._seed import derive
from automock.runtime._base import Patch, Undo
from automock.runtime._imports import when_imported

__all__ = [
    "ENV_PLAN",
    "ENV_ROOT",
    "ENV_SEED",
    "SITE_DIR",
    "child_environment",
    "enter_child",
    "followed_children",
]

ENV_PLAN = "AUTOMOCK_CHILD_PLAN"
ENV_SEED = "AUTOMOCK_CHILD_SEED"
ENV_ROOT = "AUTOMOCK_CHILD_ROOT"
_ENV_PATH = "AUTOMOCK_CHILD_PYTHONPATH"  # the program's own PYTHONPATH (if any), put back
SITE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_site")
_PYTHON_NAME = re.compile(r"^python(\d+(\.\d+)?)?$")
_IGNORING = frozenset("IES")  # -I, -E (no PYTHONPATH), -S (no sitecustomize)


@dataclass
class _Follow:
    plan_path: str
    seed: int
    root: str
    started: int = 0  # Python children started so far
    pools: int = 0  # process pools that submitted a task so far


_active: list[_Follow] = []
_lock = threading.Lock()


def _is_python(program: str, env: Mapping[str, str]) -> bool:
    import shutil  # here: entering the runtime stays free of shutil (and bz2, lzma)

    found = program if os.sep in program else shutil.which(program, path=env.get("PATH"))
    if not found:
        return False
    if os.path.realpath(found) == os.path.realpath(sys.executable):
        return True
    return _PYTHON_NAME.match(os.path.basename(found)) is not None


def _honours_site(argv: Sequence[str]) -> bool:
    """Do the interpreter's options (before the script, ``-c`` or ``-m``) keep sitecustomize?"""
    args = iter(argv[1:])
    for arg in args:
        if not arg.startswith("-") or arg in ("-", "--"):
            return True
        if arg.startswith("--"):
            continue  # --long options take no PYTHONPATH away
        for i, letter in enumerate(arg[1:]):
            if letter in _IGNORING:
                return False
            if letter in "cm":  # what follows is the code or module
                return True
            if letter in "WX":  # a value: the rest of the word, else the next word
                if i + 2 == len(arg):
                    next(args, None)
                break
    return True


def child_environment(
    argv: Sequence[str], executable: str | None, env: Mapping[str, str] | None
) -> dict[str, str] | None:
    """The environment for a new process running ``argv`` (None: not a followed Python child).

    ``env`` is what the program passed (None: this process's). Counts the child.
    """
    if not _active or not argv:
        return None
    state = _active[-1]
    base = dict(os.environ if env is None else env)
    program = os.fsdecode(executable if executable is not None else argv[0])
    if not _is_python(program, base) or not _honours_site([os.fsdecode(a) for a in argv]):
        return None
    with _lock:
        n, state.started = state.started, state.started + 1
    base.pop(_ENV_PATH, None)
    own = base.get("PYTHONPATH")
    if own is not None:
        base[_ENV_PATH] = own
    base["PYTHONPATH"] = os.pathsep.join([SITE_DIR, *([own] if own else [])])
    base.update({ENV_PLAN: state.plan_path, ENV_ROOT: state.root})
    base[ENV_SEED] = str(derive(state.seed, "child interpreter", n))
    return base


def enter_child() -> None:
    """In a followed child (its ``sitecustomize``): enter the plan for the rest of its life."""
    path, seed, root = (os.environ.pop(name, "") for name in (ENV_PLAN, ENV_SEED, ENV_ROOT))
    own = os.environ.pop(_ENV_PATH, None)
    if own is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = own
    if not path:
        return
    try:
        from automock.plan.model import Plan
        from automock.runtime import deterministic

        with open(path, encoding="utf-8") as handle:
            plan = Plan.from_dict(json.load(handle))
        deterministic(plan, seed=int(seed)).__enter__()
        followed_children(path, int(seed), root).__enter__()
    except Exception as exc:  # the child runs, unmocked, and says so
        sys.stderr.write(f"automock: child interpreter runs without the plan ({exc})\n")


class _SeededTask:
    """A pool task that re-seeds the worker's runtime before it runs (picklable by reference)."""

    def __init__(self, fn: Callable[..., Any], seed: int) -> None:
        self.fn, self.seed = fn, seed

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from automock.runtime.entropy import reseed

        with contextlib.suppress(RuntimeError):  # a worker without the runtime runs it as is
            reseed(self.seed)
        return self.fn(*args, **kwargs)


def _patch_pool(undo: Undo, module: ModuleType) -> None:
    executor = module.ProcessPoolExecutor
    original = executor.submit

    def submit(self: Any, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        if not _active:
            return original(self, fn, *args, **kwargs)
        state = _active[-1]
        with _lock:
            if not hasattr(self, "_automock_tasks"):
                self._automock_pool, self._automock_tasks = state.pools, 0
                state.pools += 1
            n, self._automock_tasks = self._automock_tasks, self._automock_tasks + 1
        task = _SeededTask(fn, derive(state.seed, "process pool task", self._automock_pool, n))
        return original(self, task, *args, **kwargs)

    undo.setattr(executor, "submit", submit)


def _patch_mp_pool(undo: Undo, module: ModuleType) -> None:
    """``multiprocessing.Pool`` tasks of ``map``/``imap``/``starmap``: seeded per (job, index)."""
    original = module.Pool._guarded_task_generation

    def generate(self: Any, result_job: int, func: Any, iterable: Any) -> Any:
        for job, i, fn, args, kwargs in original(self, result_job, func, iterable):
            if _active:
                fn = _SeededTask(fn, derive(_active[-1].seed, "multiprocessing task", job, i))
            yield job, i, fn, args, kwargs

    undo.setattr(module.Pool, "_guarded_task_generation", generate)


def _patch_spawnv(undo: Undo, util: ModuleType) -> None:
    from automock.runtime.events import record

    original = util.spawnv_passfds

    def spawnv_passfds(path: Any, args: Sequence[Any], passfds: Any) -> Any:
        env = child_environment(list(args), os.fsdecode(path), None)
        if env is None:  # not followed: a start like any other (counted against the kernel's)
            record("process", "multiprocessing", os.fsdecode(path), mocked=False)
            return original(path, args, passfds)
        record("process", "multiprocessing", os.fsdecode(path), mocked=True)
        with _lock:  # the C environment is what fork_exec passes on
            saved = {
                k: os.environ.get(k) for k in {*env, *os.environ} if os.environ.get(k) != env.get(k)
            }
            try:
                for key in saved:
                    if key in env:
                        os.environ[key] = env[key]
                    else:
                        os.environ.pop(key, None)
                return original(path, args, passfds)
            finally:
                for key, value in saved.items():
                    if value is None:
                        os.environ.pop(key, None)
                    else:
                        os.environ[key] = value

    undo.setattr(util, "spawnv_passfds", spawnv_passfds)


class followed_children(Patch[None]):
    """Python interpreters started inside the block run ``plan_path``'s plan (module docstring).

    ``plan_path``: a JSON plan file the children can read; ``seed``: the seed children's
    seeds derive from; ``root``: the directory automock is imported from.
    """

    def __init__(self, plan_path: str, seed: int, root: str) -> None:
        super().__init__()
        self.plan_path, self.seed, self.root = plan_path, int(seed), root

    def _start(self, undo: Undo) -> None:
        _active.append(_Follow(self.plan_path, self.seed, self.root))
        undo.push(_active.pop)
        when_imported(
            undo,
            {
                "multiprocessing.util": lambda module: _patch_spawnv(undo, module),
                "concurrent.futures.process": lambda module: _patch_pool(undo, module),
                "multiprocessing.pool": lambda module: _patch_mp_pool(undo, module),
            },
        )
