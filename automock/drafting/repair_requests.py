"""Repairs by rules for a request no stub matched: a stub for it, at the call site that sent it.

A trial run that dies of an unmocked request names the request (``GET https://…``) and
a pasteable stub for it (the access's ``fix``), and its exception says where the program
was (``app.py:29 in fetch``). When a network entry of the plan sits on that line, the
request came from that call: its URL was built from something the draft could not know
(a drafted list item, a timestamp, ``sys.argv``). The call's entry then answers that URL
too: a stub entry keeps its body and gets a twin for the URL; a ``deny`` entry (its URL
unknown when drafted) becomes a stub with the body drafted from how the program reads the
call's response (kept in the entry's ``provenance``), else the pasteable fix's body. The program's word is
the shape of a plan edit only: a fix that does not parse as a stub is skipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from automock.drafting.whole import whole_json
from automock.plan.model import Plan, PlanEntry

__all__ = ["stubs_for_unmatched"]

_WHERE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+)\b")
_MAX_ADDED = 8  # stubs added per round
_BODY = ("json", "text", "headers", "status")
_DRAFTED = ("json", "text", "headers", "sequence")


def _fix_data(fix: str) -> dict[str, Any] | None:
    """The stub data pasted in ``fix`` (``add a stub_http entry to the plan: {...}; …``)."""
    start = fix.find("{")
    if start < 0:
        return None
    try:
        data, _ = json.JSONDecoder().raw_decode(fix, start)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    if not isinstance(data.get("url"), str) or not isinstance(data.get("method"), str):
        return None
    return data


def _site(plan: Plan, where: str) -> int | None:
    """The index of the first network entry on the line ``where`` names (a stub added for
    an earlier unmatched request sits on the same line, after it)."""
    found = _WHERE.match(where)
    if found is None:
        return None
    name, line = found["file"].rsplit("/", 1)[-1], int(found["line"])
    hits = [
        i
        for i, e in enumerate(plan.entries)
        if e.kind == "network"
        and e.line == line
        and (e.module or plan.source_path or "").rsplit("/", 1)[-1] == name
    ]
    return hits[0] if hits else None


def _denied_site(plan: Plan, api: str) -> int | None:
    """With no frame to go by (the program caught the refusal: a retry loop, ``except
    RequestException``), the one ``deny`` network entry of the same client library: the
    call whose URL was unknown when drafted, so the only one that could have sent it."""
    library = api.split(".", 1)[0]
    hits = [
        i
        for i, e in enumerate(plan.entries)
        if e.kind == "network" and e.strategy == "deny" and e.api.split(".", 1)[0] == library
    ]
    if not hits:  # else the one call already answered for a URL a run showed (a crawl)
        hits = [
            i
            for i, e in enumerate(plan.entries)
            if "/data/url" in e.guessed and e.api.split(".", 1)[0] == library
        ]
        hits = (
            hits[:1]
            if len({(plan.entries[i].line, plan.entries[i].col) for i in hits}) == 1
            else []
        )
    return hits[0] if len(hits) == 1 else None


def _answering(site: PlanEntry, fix: dict[str, Any], why: str, round: int) -> PlanEntry:
    data = dict(fix)
    drafted = site.provenance.get("body")
    if site.strategy == "stub_http" and isinstance(site.data, dict):
        data.pop("json", None)
        data.update({k: site.data[k] for k in _BODY if k in site.data})
    elif isinstance(drafted, dict) and drafted:  # the body drafted from the call's reads
        data.pop("json", None)
        data.update({k: v for k, v in drafted.items() if k in _DRAFTED})
        if drafted.get("whole") and "json" in data:  # read only whole: what its URL names
            data["json"] = whole_json(str(fix.get("url", "")), 0, str(fix.get("method", "GET")))
    provenance = {"drafter": "rules", "round": round, "repairs": [f"/data/url: {why}"]}
    return replace(
        site,
        strategy="stub_http",
        data=data,
        guessed=(*site.guessed, "/data/url", *(["/json"] if "json" in (drafted or {}) else [])),
        drafted=True,
        provenance=provenance,
    )


def stubs_for_unmatched(
    plan: Plan, accesses: Iterable[Any], where: str, *, round: int
) -> tuple[Plan, tuple[str, ...]]:
    """``plan`` with a stub for each unmatched request sent from the line ``where`` names
    (module docstring), or else from the only denied call of its client library, and what
    was added and why."""
    framed = _site(plan, where)
    entries = list(plan.entries)
    done: list[str] = []
    for access in accesses:
        if len(done) >= _MAX_ADDED:
            break
        if getattr(access, "mocked", True) or getattr(access, "kind", "") != "network":
            continue
        fix = _fix_data(str(getattr(access, "fix", "")))
        site = framed
        if site is None:  # the denied call's own entry, when it is the only candidate
            site = _denied_site(replace(plan, entries=tuple(entries)), str(access.api))
            where = f"line {entries[site].line}, the call left denied" if site is not None else ""
        if fix is None or site is None:
            continue
        why = f"the request {getattr(access, 'target', '')} matched no stub (sent at {where})"
        new = _answering(entries[site], fix, why, round)
        if entries[site].strategy == "stub_http":
            entries.append(new)
        else:
            entries[site] = new
        done.append(f"entries[{site}] answers {fix['url']}: {why}")
    return replace(plan, entries=tuple(entries)), tuple(done)
