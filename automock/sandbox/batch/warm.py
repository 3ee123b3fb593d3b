"""Warming the batch pool's parent: what children find already imported and set up.

A forked child shares the parent's memory, so everything imported here is free
for every candidate: the runtime, what the plan needs, ``--preload`` modules
and the installed modules the candidates import. The runtime is entered and
left once (its lazy imports happen here, not per child), and ``gc.freeze()``
moves every object out of the collector's reach so children do not dirty
(copy) the parent's pages by collecting them.
"""

from __future__ import annotations

import functools
import gc
import importlib
import importlib.util
import os
import sys
import sysconfig
from collections.abc import Iterable
from typing import Any

from automock.errors import InputError

__all__ = ["plan_modules", "preload_imports", "warm_parent"]

_RUNTIME_MODULES = (
    "automock.runtime",
    "automock.plan.model",
    "automock.sandbox.kernel.isolation",
    "automock.sandbox.kernel.mountns",
    "automock.sandbox.kernel.environment",
    "automock.sandbox.child.candidate",
    "automock.sandbox.child.pair",  # a (code, tests) pair's two processes and their channel
    "atexit",  # each child's interpreter exit runs it: imported there, ~60 pages copied each
)
# never imported in the parent on a candidate's behalf (side effects at import)
_NEVER_PRELOAD = frozenset(
    {"antigravity", "this", "__hello__", "__phello__", "idlelib", "tkinter", "turtle", "turtledemo"}
    | {"pip", "ensurepip", "venv", "lib2to3", "pydoc", "webbrowser", "__main__"}
)


@functools.cache
def _installed_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    keys = ("stdlib", "platstdlib", "purelib", "platlib")
    return tuple({os.path.join(os.path.realpath(paths[k]), "") for k in keys if k in paths})


def preload_imports(names: Iterable[str]) -> list[str]:
    """Import, in this (parent) process, the installed modules among ``names``.

    Children are forked after this, so an import a candidate makes is a
    dictionary lookup instead of a disk read (and works after the uid drop
    even when the interpreter lives in a directory the sandbox uid cannot
    read). Only the standard library and installed packages are considered,
    never a file next to the candidates.
    """
    roots = _installed_roots()
    loaded: list[str] = []
    for name in sorted(set(names)):
        if name in sys.modules or name in _NEVER_PRELOAD:
            continue
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        origin = (spec.origin or "") if spec is not None else ""
        if origin not in ("built-in", "frozen") and not os.path.realpath(origin).startswith(roots):
            continue
        try:
            importlib.import_module(name)
        except Exception:  # a broken optional package: the child will report it
            continue
        loaded.append(name)
    return loaded


def plan_modules(plan: Any) -> Iterable[str]:
    """Modules the runtime will need for this plan."""
    kinds = {getattr(e, "kind", "") for e in getattr(plan, "entries", ())}
    strategies = {getattr(e, "strategy", "") for e in getattr(plan, "entries", ())}
    if "network" in kinds:
        yield "automock.runtime.http"
    if "database" in kinds:
        yield "automock.runtime.databases"
    if "fake_redis" in strategies:
        yield "fakeredis"
    if "fake_mongo" in strategies:
        yield "mongomock"


def warm_parent(settings: Any) -> None:
    """Import what children need, rehearse the runtime once, then ``gc.freeze()``."""
    preload = tuple(settings.preload)
    names = list(_RUNTIME_MODULES)
    if settings.plan is not None:
        names.extend(plan_modules(settings.plan))
    for name in (*names, *preload):
        try:
            importlib.import_module(name)
        except ImportError as exc:
            if name in preload:
                raise InputError(
                    f"preload module {name!r} (--preload): cannot import it ({exc}); install it or drop it"
                ) from None
    _rehearse(settings.plan, settings.seed)
    from automock.sandbox.kernel.environment import candidate_environment
    from automock.sandbox.kernel.isolation import VIRTUAL_ROOT

    candidate_environment(VIRTUAL_ROOT, settings.seed)  # children find it computed
    from automock.sandbox.child.channel import rehearse

    rehearse()  # a pair's first message in each child then touches (copies) fewer pages
    from automock.sandbox.kernel.seccomp import prepare

    prepare()  # the syscall filter, exported once: children only load it
    gc.collect()
    gc.freeze()


def _rehearse(plan: Any, seed: int) -> None:
    """Enter and leave the runtime once so its lazy imports happen here, not per child."""
    from automock.plan.model import Plan
    from automock.runtime import deterministic

    with deterministic(plan if plan is not None else Plan(), seed=seed):
        pass
