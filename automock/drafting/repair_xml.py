"""Repair by rules of an XML body whose elements the code reads by position.

A trial run that failed with ``IndexError`` on ``root[0]`` or ``item[1]`` (ElementTree,
lxml) notes a ``children`` record: the element's tag and how many children the code reads
(:mod:`automock.runtime.observations_frames`). Every element of that tag in the stub's
``text`` body with fewer children gets more, named as the children of a feed item are
(``title``, ``link``, ``description``, ``pubDate``, then ``field<N>``) with values of
that kind (:func:`automock.drafting.values.plausible`), until it has as many as were read.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from xml.etree import ElementTree

from automock.drafting.repaired import noted
from automock.drafting.values import plausible
from automock.plan.model import Plan

__all__ = ["xml_children"]

_NAMES = ("title", "link", "description", "pubDate")
_MAX_WANTED = 20


def _grown(text: str, tag: str, wanted: int) -> str | None:
    """``text`` with each ``tag`` element holding ``wanted`` children (None: no change)."""
    declaration, _, rest = (
        text.partition("?>") if text.lstrip().startswith("<?xml") else ("", "", text)
    )
    try:
        root = ElementTree.fromstring(rest.strip())
    except ElementTree.ParseError:
        return None
    changed = False
    for element in root.iter(tag):
        for index in range(len(element), wanted):
            name = _NAMES[index] if index < len(_NAMES) else f"field{index + 1}"
            child = ElementTree.SubElement(element, name)
            child.text = str(plausible(name, index))
            changed = True
    if not changed:
        return None
    head = f"{declaration}?>\n" if declaration else ""
    return f"{head}{ElementTree.tostring(root, encoding='unicode')}\n"


def _target(data: dict[str, Any], response: Any) -> dict[str, Any] | None:
    sequence = data.get("sequence")
    if isinstance(sequence, list) and type(response) is int and 0 <= response < len(sequence):
        item = sequence[response]
        return item if isinstance(item, dict) else None
    return data


def xml_children(
    plan: Plan, observations: Mapping[str, Any], *, round: int
) -> tuple[Plan, tuple[str, ...]]:
    """``plan`` with the ``children`` records of a trial run repaired, and what was done."""
    misses = observations.get("misses")
    entries, done = list(plan.entries), []
    for record in misses[:200] if isinstance(misses, list) else []:
        if not isinstance(record, dict) or record.get("kind") != "children":
            continue
        index, tag, wanted = record.get("entry"), record.get("tag"), record.get("wanted")
        if type(index) is not int or not 0 <= index < len(entries) or not isinstance(tag, str):
            continue
        if type(wanted) is not int or not 0 < wanted <= _MAX_WANTED:
            continue
        entry = entries[index]
        data = copy.deepcopy(dict(entry.data))
        target = _target(data, record.get("response"))
        text = target.get("text") if target is not None and entry.strategy == "stub_http" else None
        grown = None
        with contextlib.suppress(ValueError):
            grown = _grown(text, tag, wanted) if isinstance(text, str) else None
        if grown is None or target is None:
            continue
        target["text"] = grown
        why = f"<{tag}> read by position {wanted - 1} (it had {record.get('length')} children)"
        pointer = "/text" if target is data else f"/sequence/{record.get('response')}/text"
        entries[index] = noted(entry, pointer, why, round, data=data)
        done.append(f"entries[{index}] {pointer}: {why}")
    return replace(plan, entries=tuple(entries)), tuple(done)
