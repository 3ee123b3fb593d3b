"""The pytest plugin's network settings: ``allow_hosts`` of the marker, a plan's cassette path.

Kept apart from :mod:`automock.pytest_plugin` (which pytest imports at startup in every
project that has automock) and as light: the runtime loads only when called.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # pragma: no cover
    from automock.plan.model import Plan

__all__ = ["allow_hosts_of", "cassette_beside"]


def allow_hosts_of(nodeid: str, kwargs: dict[str, Any]) -> tuple[str, ...]:
    """The marker's ``allow_hosts`` (validated; loopback names allow each other)."""
    from automock.runtime.http_passthrough import allowed_hosts

    try:
        return tuple(sorted(allowed_hosts(kwargs.get("allow_hosts", ()))))
    except ValueError as exc:
        raise pytest.UsageError(f"{nodeid}: @pytest.mark.automock {exc}") from None


def cassette_beside(plan: Plan, path: Path) -> Plan:
    """A relative cassette path is taken from the plan's place, not the current directory
    (:func:`automock.plan.locate.cassette_file`, as ``automock run`` does)."""
    from dataclasses import replace

    from automock.plan.locate import cassette_file

    if plan.cassette is None:
        return plan
    return replace(
        plan, cassette=replace(plan.cassette, path=cassette_file(plan.cassette.path, path))
    )
