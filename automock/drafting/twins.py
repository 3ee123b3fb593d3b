"""Call sites sending the same request share one drafted body (:func:`shared`)."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from automock.drafting.shapes import HttpShape

__all__ = ["shared"]


def shared(shapes: list[HttpShape]) -> list[HttpShape]:
    """Call sites sending the same request share one drafted body: the first stub of a
    request answers every call of it (a retry, a re-assigned response, the page fetched
    before a paging loop and the ones inside it), so each twin's body carries the keys
    the code reads at every site of the request, and a bodiless twin takes that body."""
    twins: dict[tuple[str, str, str, str], list[HttpShape]] = {}
    for shape in shapes:
        if shape.json is not None or shape.text is not None:
            twins.setdefault(_request_key(shape), []).append(shape)
    out = []
    for shape in shapes:
        group = twins.get(_request_key(shape), [])
        if not group:
            out.append(shape)
            continue
        body = group[0] if shape.json is None and shape.text is None else shape
        merged = copy.deepcopy(body.json)
        moved = [g for g in body.guessed if g.startswith(("/json", "/text", "/headers"))]
        for twin in group:
            if twin is not body and _merge(merged, twin.json):
                moved += [g for g in twin.guessed if g.startswith("/json") and g not in moved]
        guessed = (*[g for g in shape.guessed if g not in moved], *moved)
        headers = {**body.headers, **shape.headers}
        out.append(replace(shape, json=merged, text=body.text, guessed=guessed, headers=headers))
    return out


def _merge(into: Any, extra: Any) -> bool:
    """Add to object ``into`` the keys of ``extra`` it lacks (recursively, into the first
    item of lists of objects); whether anything was added."""
    if isinstance(into, list) and isinstance(extra, list) and into and extra:
        return any([_merge(item, extra[0]) for item in into])
    if not isinstance(into, dict) or not isinstance(extra, dict):
        return False
    added = False
    for key, value in extra.items():
        if key not in into:
            into[key] = copy.deepcopy(value)
            added = True
        else:
            added = _merge(into[key], value) or added
    return added


def _request_key(shape: HttpShape) -> tuple[str, str, str, str]:
    return (shape.method, shape.url, shape.match, repr(sorted(shape.query.items())))
