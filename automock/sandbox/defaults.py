"""A minimal default plan for ``automock run`` when no plan file or drafter is available.

Kept deliberately tiny: the rules drafter (:mod:`automock.drafting`) replaces
it as soon as it is importable. Global concerns (clock, seed, env) come from
the :class:`~automock.plan.model.Plan` defaults; each touchpoint gets the
obvious strategy, and the network fails closed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from automock.analysis.model import Touchpoint
from automock.plan.model import Plan, PlanEntry

__all__ = ["default_plan_for"]

_DATABASES: dict[str, tuple[str, Mapping[str, Any]]] = {
    "sqlite3": ("sqlite_memory", {"engine": "sqlite", "target": "*"}),
    "sqlalchemy": ("sqlalchemy_sqlite", {"engine": "sqlite", "target": "*"}),
    "redis": ("fake_redis", {"engine": "redis", "target": "*"}),
    "pymongo": ("fake_mongo", {"engine": "mongo", "target": "*"}),
}
_LISTINGS = ("listdir", "scandir", "glob", "iglob", "iterdir", "walk", "rglob")


def _strategy(tp: Touchpoint) -> tuple[str, Mapping[str, Any]]:
    if tp.kind == "time":
        return "freeze", {}
    if tp.kind == "random":
        return "seed", {}
    if tp.kind == "database":
        return _DATABASES.get(tp.api.split(".")[0], ("deny", {}))
    if tp.kind == "environment":
        return "fixed_env", {}
    if tp.kind == "filesystem":
        return ("sorted_listing" if tp.api.rsplit(".", 1)[-1] in _LISTINGS else "seed"), {}
    if tp.kind == "process":
        return "allow", {}  # the sandbox, not the plan, contains child processes
    return "deny", {}  # network: fail closed with a message naming the stub to add


def default_plan_for(touchpoints: Iterable[Touchpoint], source_path: str | None, seed: int) -> Plan:
    """One entry per touchpoint with the obvious strategy; network denied."""
    entries = []
    for tp in touchpoints:
        strategy, data = _strategy(tp)
        entries.append(
            PlanEntry(
                line=tp.line,
                col=tp.col,
                kind=tp.kind,
                api=tp.api,
                strategy=strategy,
                symbol=tp.symbol,
                data=dict(data),
            )
        )
    digest = None
    if source_path is not None and Path(source_path).is_file():
        digest = hashlib.sha256(Path(source_path).read_bytes()).hexdigest()
    return Plan(
        source_path=source_path,
        source_sha256=digest,
        drafter="default",
        seed=seed,
        network="deny",
        entries=tuple(entries),
    )
