"""Joins between drafted responses: a field named after another endpoint's resource.

``launch["rocket"]`` looked up in a dict built from ``GET /rockets`` (``{r["id"]: r["name"]
for r in rockets}``) must hold one of those ids, or the lookup fails on the drafted
``"rocket-beta"``. A REST API names a reference after the resource it points to, so a
field ``rocket``/``rocket_id``/``rocketId`` of one body takes, in turn, the ``id`` of
each item of the body of a stub whose URL ends in ``/rockets`` (or ``/rocket``).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

__all__ = ["joined"]


def _resource(url: str, match: str) -> str:
    if match == "regex":
        return ""
    last = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
    return last.lower() if re.fullmatch(r"[A-Za-z_-]{3,}", last) else ""


def _ids(body: Any) -> list[Any]:
    """The ``id`` of each item of a list body (or of the one list an object body holds)."""
    if isinstance(body, dict):
        lists = [v for v in body.values() if isinstance(v, list)]
        body = lists[0] if len(lists) == 1 else None
    if not isinstance(body, list):
        return []
    return [item["id"] for item in body if isinstance(item, dict) and "id" in item]


def _refers(key: str, resource: str) -> bool:
    base = re.sub(r"(_id|Id|_ids|Ids)$", "", key).lower()
    return bool(base) and resource in (base, f"{base}s", f"{base}es")


def joined(bodies: list[tuple[str, str, Any]]) -> list[Any]:
    """Each body (of ``(url, match, body)``) with its fields that refer to another stub's
    resource holding that stub's ids in turn (module docstring)."""
    resources = [(_resource(url, match), _ids(body)) for url, match, body in bodies]
    out = []
    for number, (_, _, body) in enumerate(bodies):
        for other, (resource, ids) in enumerate(resources):
            if other != number and resource and ids:
                _fill(body, resource, ids, [0])
        out.append(body)
    return out


def _fill(node: Any, resource: str, ids: list[Any], count: list[int]) -> None:
    if isinstance(node, list):
        for item in node:
            _fill(item, resource, ids, count)
    elif isinstance(node, dict):
        for key, value in node.items():
            if _refers(key, resource) and _id_like(value) and key != "id":
                node[key] = ids[count[0] % len(ids)]
                count[0] += 1
            else:
                _fill(value, resource, ids, count)


def _id_like(value: Any) -> bool:
    """A value that may be a reference by id (a link, ``https://...``, is one by URL)."""
    return isinstance(value, int) or (isinstance(value, str) and "://" not in value)
