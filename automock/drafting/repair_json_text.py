"""Repair by rules of a text body the program decodes as JSON: a JSON body instead.

``json.loads(await resp.text())`` (or ``json.loads(r.read())``) handed to a helper hides
the decoding from the drafter, which then drafts the body as a page or plain text. The
trial run dies of ``JSONDecodeError``; every stub whose ``text`` body is not JSON then
gets the JSON body its URL names (:func:`automock.drafting.whole.whole_json`: a
well-known API's shape, else a record or two of the resource), served as
``application/json``. The loop's next rounds repair the keys the program reads in it.
"""

from __future__ import annotations

import json
from dataclasses import replace

from automock.drafting.repaired import noted
from automock.drafting.whole import whole_json
from automock.plan.model import Plan

__all__ = ["json_for_text"]

_MAX_CHANGED = 3  # more non-JSON text bodies than this: the program reads pages too


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def json_for_text(plan: Plan, exception: str, *, round: int) -> tuple[Plan, tuple[str, ...]]:
    """``plan`` with each non-JSON ``text`` stub body made JSON when the run died of
    ``JSONDecodeError``, and what was changed and why."""
    if not exception.startswith("JSONDecodeError"):
        return plan, ()
    found = [
        i
        for i, entry in enumerate(plan.entries)
        if entry.strategy == "stub_http"
        and isinstance(entry.data, dict)
        and isinstance(entry.data.get("text"), str)
        and isinstance(entry.data.get("url"), str)
        and not _is_json(entry.data["text"])
    ]
    if not found or len(found) > _MAX_CHANGED:
        return plan, ()
    entries = list(plan.entries)
    done: list[str] = []
    why = f"the program decoded a text body as JSON ({exception.split(':', 1)[0]})"
    for i in found:
        data = {k: v for k, v in entries[i].data.items() if k != "text"}
        headers = data.get("headers")
        kept = {k: v for k, v in (headers or {}).items() if k.lower() != "content-type"}
        data["headers"] = {**kept, "Content-Type": "application/json"}
        data["json"] = whole_json(str(data["url"]), i, str(data.get("method") or "GET"))
        entries[i] = noted(entries[i], "/data/json", why, round, data=data)
        done.append(f"entries[{i}] /data/json: a JSON body for {data['url']}: {why}")
    return replace(plan, entries=tuple(entries)), tuple(done)
