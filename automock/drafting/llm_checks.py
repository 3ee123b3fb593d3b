"""A model's answer checked for meaning, not only for types, and merged into the plan.

:func:`merge` builds the plan the answer describes (validated like a plan file) and then
holds it to the draft it refines: every touchpoint keeps an entry; an entry keeps its
call's ``kind``, ``col`` and ``api``; an HTTP call keeps a ``stub_http`` entry (the model
may add one for a call site that needs two), and every request a stub of the draft served
is still served by one (stubs may be merged or widened, never silently dropped); no entry
for a line the scanner did not report. What breaks these is a :class:`PlanError` the model is
shown. ``env`` edits are honoured, or refused one by one with the reason; stubs that can
never be served (shadowed by a higher-ranked one) are warned about.
"""

from __future__ import annotations

import re
from typing import Any

from automock.errors import PlanError
from automock.plan.model import Plan, PlanEntry

__all__ = ["dead_stubs", "merge"]

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# variables that steer automock or the interpreter, not the program
_ENV_OWNED = ("AUTOMOCK_", "PYTHON")

Key = tuple[str | None, int, str]


def _key(entry: PlanEntry, entry_module: str | None) -> Key:
    return (entry.module or entry_module, entry.line, entry.api)


def _unserved(offline: Plan, plan: Plan) -> None:
    """A stub of the draft whose own request no stub of the answer serves was dropped."""
    from automock.runtime.http_match import compile_stubs, most_specific, stub_request

    answer = compile_stubs(plan.http_stubs())
    for stub in offline.http_stubs():
        if stub.match == "regex" or stub.body_json is not None:
            continue
        request = stub_request(stub)
        if most_specific(answer, request) is None:
            raise PlanError(
                f"plan.entries: no stub serves {request.method} {request.url} "
                f"(the draft's {stub.label}); keep a stub for every request the draft served"
            )


def _env(offline: Plan, answer: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The plan's env with the answer's edits honoured, and each refused edit with why."""
    env = dict(offline.env)
    edits = answer.get("env")
    if edits is None:
        return env, []
    if not isinstance(edits, dict):
        return env, ["the model's env edit was refused: env must be an object of strings"]
    refused = []
    for name, value in edits.items():
        if not isinstance(value, str):
            refused.append(f"env {name}: refused, the value must be a string")
        elif not _ENV_NAME.fullmatch(str(name)):
            refused.append(f"env {name!r}: refused, not a variable name")
        elif str(name).startswith(_ENV_OWNED):
            refused.append(f"env {name}: refused, automock and the interpreter own it")
        else:
            env[str(name)] = value
    return env, refused


def _check_entry(index: int, entry: PlanEntry, drafted: list[PlanEntry]) -> None:
    where = f"plan.entries[{index}]"
    if not drafted:
        raise PlanError(
            f"{where}: no touchpoint {entry.api} at line {entry.line} in the draft; "
            "do not invent touchpoints, keep each entry's line and api as drafted"
        )
    cols = sorted({d.col for d in drafted})
    if entry.col not in cols:
        raise PlanError(f"{where}.col: {entry.col}, the call is at col {cols[0]}; keep col")
    same = [d for d in drafted if d.col == entry.col]
    if entry.kind not in {d.kind for d in same}:
        raise PlanError(f"{where}.kind: {entry.kind!r}, drafted {same[0].kind!r}; keep kind")
    stubbed = any(d.strategy == "stub_http" for d in same)
    if stubbed and entry.strategy != "stub_http":
        raise PlanError(
            f"{where}.strategy: {entry.strategy!r} replaces the call's stub_http; "
            "an HTTP call keeps a stub (add one, never drop one)"
        )
    if not stubbed and entry.strategy == "stub_http":
        raise PlanError(f"{where}.strategy: stub_http on a call that is not HTTP; keep strategy")


def dead_stubs(plan: Plan) -> list[str]:
    """One line for each stub a higher-ranked stub serves in its place."""
    from automock.runtime.http_match import compile_stubs, shadowed

    return [
        f"{stub.stub.label}: the stub for {stub.stub.url} is never served, "
        f"{by.stub.label} ({by.stub.url}) ranks higher for its request"
        for stub, by in shadowed(compile_stubs(plan.http_stubs()))
    ]


def merge(offline: Plan, answer: Any) -> tuple[Plan, list[str]]:
    """The plan the answer describes and what was refused or looks dead;
    :class:`PlanError` names the first answer the draft does not allow."""
    if not isinstance(answer, dict) or not isinstance(answer.get("entries"), list):
        raise PlanError("submit_plan input: expected an object with entries")
    entries = [  # the model's stubs are drafts too: never a catch-all
        {**e, "drafted": True} if isinstance(e, dict) and e.get("strategy") == "stub_http" else e
        for e in answer["entries"]
    ]
    env, notes = _env(offline, answer)
    data = offline.to_dict()
    data.update(entries=entries, properties=answer.get("properties", []), drafter="llm", env=env)
    plan = Plan.from_dict(data)
    home = next(iter(offline.modules), None)
    by_key: dict[Key, list[PlanEntry]] = {}
    for entry in offline.entries:
        by_key.setdefault(_key(entry, home), []).append(entry)
    for index, entry in enumerate(plan.entries):
        _check_entry(index, entry, by_key.get(_key(entry, home), []))
    kept = {_key(e, home) for e in plan.entries}
    for entry in offline.entries:
        if _key(entry, home) not in kept:
            raise PlanError(
                f"plan.entries: no entry for line {entry.line} {entry.api}; "
                "keep one entry per touchpoint with its line and api unchanged"
            )
    _unserved(offline, plan)
    return plan, notes + dead_stubs(plan)
