"""What a plan may ask of a run: it can narrow what runs, never widen it.

A plan is the project's word (found beside the code, or shipped with it and named with
``--plan``): it is validated, and the rights it would take are checked against the
person's flags before anything runs (docs/security.md, "Threat model: an untrusted
project"):

* ``"network": "allow"`` only with the person's ``--allow-network`` (or ``--record``);
* a cassette that records (``record_mode`` other than ``none``) only with ``--record``;
* the cassette path stays inside the project: relative, no ``..`` step, and no symbolic
  link on the way that leads out of the directory it is taken from
  (:func:`contained_cassette`).

The plan has no other field that reaches past the sandbox: its ``env`` is applied inside
the isolated child (:func:`automock.sandbox.child.fresh.plan_variables`), its database
fixtures and HTTP stubs act inside the child, and limits and read paths come only from
flags. Each refusal is one :class:`~automock.errors.PlanError` line (exit code 3) naming
the plan and the flag.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from automock.errors import PlanError
from automock.plan.locate import leads_out
from automock.plan.model import Plan

__all__ = ["check_rights", "contained_cassette"]


def check_rights(
    plan: Plan | None,
    where: str,
    *,
    allow_network: bool,
    record: bool,
    command: str = "automock run",
) -> None:
    """Refuse ``plan`` (read from ``where``) when it asks for more than the person's flags
    give. ``command``: ``"automock batch"`` has neither flag, so nothing is allowed there."""
    if plan is None:
        return
    run = command == "automock run"
    if plan.network == "allow" and not allow_network:
        why, fix = (
            ("without --allow-network", "pass --allow-network yourself")
            if run
            else (f"({command} always runs without the network)", "remove it")
        )
        raise PlanError(
            f'{where}: "network": "allow" is refused {why}: a plan cannot turn the network '
            f'namespace off; {fix}, or set "network": "deny"'
        )
    cassette = plan.cassette
    if cassette is not None and cassette.record_mode != "none" and not record:
        why, fix = (
            ("without --record", "pass --record yourself")
            if run
            else (f"({command} never records)", "use a replaying cassette")
        )
        raise PlanError(
            f'{where}: cassette.record_mode "{cassette.record_mode}" is refused {why}: a plan '
            f'cannot record on its own; {fix}, or set "record_mode": "none" to replay'
        )


def contained_cassette(where: str, path: str, found: str, bases: Sequence[str]) -> None:
    """Refuse the plan's cassette ``path`` (taken as ``found``, from one of ``bases``) when
    it is absolute, steps out with ``..``, or a symbolic link leads it out of every base."""
    problem = ""
    if os.path.isabs(path):
        problem = "is absolute"
    elif ".." in path.replace("\\", "/").split("/"):
        problem = "leaves the project with '..'"
    else:
        outside = [leads_out(found, base) for base in bases]
        if all(outside):
            problem = f"leads out of the project through a symbolic link (to {outside[0]})"
    if problem:
        raise PlanError(
            f"{where}: cassette.path {path!r} {problem}; a plan's cassette must be a file "
            "inside the project, given relative to it (e.g. fixtures/app.cassette.yaml)"
        )
