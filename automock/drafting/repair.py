"""Repairs by rules: a drafted plan changed where a trial run's observations say it failed.

A trial run (:mod:`automock.pipeline.drafting_loop`) reports what the program read from
its stub bodies and missed (:mod:`automock.runtime.observations`). Each kind has a rule:

- ``key`` (a key looked up and absent): the key is added, in every item of the list it
  sits in, with a value of the type its use needs (the ``.get`` default's type, else what
  the key's name suggests, :func:`automock.drafting.values.plausible`);
- ``index`` (a position past the end, a slice longer than the list): the list gets enough
  items (copies of its last one);
- ``parse`` (``int()``/``float()``/``strptime`` on a drafted string): the leaf becomes a
  number-shaped string, or a date in the program's format;
- ``type`` (a number or string used as an object or a list: ``.get``, ``[...]``, a loop):
  the leaf (or the whole body) becomes an object or a list; a number used as text (a ``str``
  method, ``"a" + n``, ``" ".join``: ``wanted="str"``) becomes the number as a string;
- ``selector`` (a BeautifulSoup ``find``/``find_all``/``select``/``select_one`` that
  found nothing in an HTML body): an element it matches is added to the body
  (:func:`automock.drafting.markup.render_markup`);
- ``repeated`` (one stub served until the run gave up: a polling or paging loop): the
  stub gets a ``sequence`` whose second response ends the loop (the values the program
  compared a leaf with, or no next page, no more items, or else numbers past a threshold;
  a page of text without its links: :mod:`automock.drafting.repair_polls`);

The observations are the program's word (malformed ones skipped, none trusted beyond a
plan edit's shape); a repaired entry records what and why in ``provenance``, and ``guessed``.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from automock.drafting.paging import end_value, ends_page, pages_of
from automock.drafting.repair_markup import describe_selector, repair_selector
from automock.drafting.repair_parsed import parsed_value, repair_in_text
from automock.drafting.repair_polls import HIGH, is_high, numbers_to, text_pages_end
from automock.drafting.repaired import noted
from automock.drafting.values import plausible
from automock.plan.model import Plan, PlanEntry

__all__ = ["Repair", "describe", "repair_plan"]

# keys whose absence is how a healthy response looks: never added on a `.get` or `in` miss
_QUIET = re.compile(r"(?i)^(errors?|error_\w+|message|detail|fault|warnings?|exception)$")
_MAX_RECORDS = 200  # observation records acted on per run
_MAX_RECORD = 4096  # characters of one record (a key, a value compared with, a selector)
_DONE = ("done", "complete", "completed", "finished", "success", "succeeded", "ready", "ok")
_HINTS = {"int": "int", "float": "float", "bool": "bool", "list": "list", "dict": "dict"}


@dataclass(frozen=True, slots=True)
class Repair:
    """One change to one plan entry: which (``entry``), where in its data (``pointer``),
    what was done and why (the observation, in words)."""

    entry: int
    pointer: str
    what: str
    why: str


def _split(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


def _nodes(value: Any, parts: Sequence[str]) -> Iterator[Any]:
    """Every node at ``parts``, a list position standing for each item of that list."""
    if not parts:
        yield value
        return
    head, rest = parts[0], parts[1:]
    if isinstance(value, dict) and head in value:
        yield from _nodes(value[head], rest)
    elif isinstance(value, list) and head.isdigit():
        for item in value:
            yield from _nodes(item, rest)


def _value_for(key: str, record: Mapping[str, Any]) -> Any:
    hint = _HINTS.get(str(record.get("default", "")))
    value = plausible(key, 0, hint)
    if hint == "list":  # a list of objects, the most common body; a later round reshapes it
        return [{}]
    return value


def _body_root(
    data: dict[str, Any], record: Mapping[str, Any]
) -> tuple[dict[str, Any], str] | None:
    """The response (a dict holding ``json``) the record is about, and its pointer prefix;
    None when the record names no response of this entry."""
    response = record.get("response", -1)
    if type(response) is not int:
        return None
    sequence = data.get("sequence")
    if response >= 0 and isinstance(sequence, list) and response < len(sequence):
        item = sequence[response]
        return (item, f"/sequence/{response}") if isinstance(item, dict) else None
    return data, ""


def _repair_key(data: dict[str, Any], record: Mapping[str, Any]) -> list[str]:
    key, at, via = record.get("key"), record.get("at", ""), record.get("via")
    if not isinstance(key, str) or not isinstance(at, str) or via not in ("[]", "get", "in"):
        return []
    if via != "[]" and _QUIET.match(key):
        return []
    root = _body_root(data, record)
    if root is None or not isinstance(root[0].get("json"), dict | list):
        return []
    changed = 0
    for node in _nodes(root[0]["json"], _split(at)):
        if isinstance(node, dict) and key not in node:
            node[key] = _value_for(key, record)
            changed += 1
    escaped = key.replace("~", "~0").replace("/", "~1")
    return [f"{root[1]}/json{at}/{escaped}"] if changed else []


def _repair_index(data: dict[str, Any], record: Mapping[str, Any]) -> list[str]:
    at, wanted = record.get("at", ""), record.get("wanted")
    if not isinstance(at, str) or type(wanted) is not int or not 0 < wanted <= 100:
        return []
    root = _body_root(data, record)
    if root is None:
        return []
    changed = False
    for node in _nodes(root[0].get("json"), _split(at)):
        if isinstance(node, list) and len(node) < wanted:
            model = node[-1] if node else {}
            node.extend(copy.deepcopy(model) for _ in range(wanted - len(node)))
            changed = True
    return [f"{root[1]}/json{at}"] if changed else []


def _repair_parse(data: dict[str, Any], record: Mapping[str, Any]) -> list[str]:
    at = record.get("at", "")
    parts = _split(at) if isinstance(at, str) else []
    root = _body_root(data, record)
    number = parsed_value(record.get("parser"), record.get("format"))
    if root is None or number is None:
        return []
    if not parts:  # a text body: the string has no path in it
        return repair_in_text(root[0], root[1], record) if at == "" else []
    *head, last = parts
    changed = False
    for node in _nodes(root[0].get("json"), head):
        if isinstance(node, dict) and isinstance(node.get(last), str):
            node[last], changed = number, True
        elif isinstance(node, list) and last.isdigit() and int(last) < len(node):
            node[int(last)], changed = number, True
    return [f"{root[1]}/json{at}"] if changed else []


def _repair_type(data: dict[str, Any], record: Mapping[str, Any]) -> list[str]:
    """A number or string the code used as an object or a list: that shape instead."""
    at, wanted, use = record.get("at", ""), record.get("wanted"), record.get("use")
    root = _body_root(data, record)
    if not isinstance(at, str) or root is None:
        return []
    texts = isinstance(use, str) and hasattr(str, use) and not hasattr(float, use)
    if wanted not in ("dict", "list", "str") and not texts:
        return []
    shape: Any = {} if wanted == "dict" else [{}] if wanted == "list" else None
    parts = _split(at)
    if not parts and shape is not None:
        root[0]["json"] = _reshaped(root[0].get("json"), shape)
        return [f"{root[1]}/json"]
    *head, last = parts or [""]
    changed = False
    for node in _nodes(root[0].get("json"), head):
        slots: list[Any] = [last] if isinstance(node, dict) and last in node else []
        if isinstance(node, list) and last.isdigit() and int(last) < len(node):
            slots = list(range(len(node)))  # a list's items are alike: each one, in one round
        for slot in slots:
            # a number the code treats as text (``.replace(",", "")``): the number as a string
            value = _reshaped(node[slot], shape) if shape is not None else _as_text(node[slot])
            node[slot], changed = value, True
    return [f"{root[1]}/json{at}"] if changed else []


def _reshaped(value: Any, shape: Any) -> Any:
    """``shape`` for ``value``; an object taken for a list becomes a list of two of it."""
    if isinstance(shape, list) and isinstance(value, dict) and value:
        return [value, copy.deepcopy(value)]
    return copy.deepcopy(shape)


def _as_text(value: Any) -> Any:
    return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def _merged(into: Any, extra: Any) -> int:
    """Deep-merge ``extra``'s keys into ``into`` (``into``'s values win); keys added."""
    added = 0
    if isinstance(into, dict) and isinstance(extra, dict):
        for key, value in extra.items():
            if key not in into:
                into[key], added = copy.deepcopy(value), added + 1
            else:
                added += _merged(into[key], value)
    return added


def _repair_shadowed(
    entries: list[PlanEntry], record: Mapping[str, Any], round: int
) -> list[Repair]:
    """A stub never served: its body's keys join the body of the stub serving in its place."""
    mine, by = record.get("entry"), record.get("by")
    if type(by) is not int or not 0 <= by < len(entries) or mine == by:
        return []
    theirs, own = entries[by].data, entries[int(str(mine))].data
    if entries[by].strategy != "stub_http" or not isinstance(theirs, dict):
        return []
    if theirs.get("sequence") or not _merged(theirs.get("json"), own.get("json")):
        return []
    why = f"entries[{mine}] is never served: entries[{by}] ranks higher for its requests"
    entries[by] = noted(entries[by], "/json", f"merged the keys of entries[{mine}]", round)
    return [Repair(by, "/json", f"merged the keys of entries[{mine}]", why)]


def _ended(body: Any, compared: Mapping[str, str]) -> Any:
    """A body that ends the program's loop over it (see the module docstring)."""
    end = copy.deepcopy(body)
    if compared:
        for pointer, wanted in compared.items():
            *head, last = _split(pointer) or [""]
            for node in _nodes(end, head):
                if isinstance(node, dict) and last in node:
                    node[last] = wanted
        return end

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: end_value(k) if ends_page(k, v) else walk(v) for k, v in node.items()}
        return [] if isinstance(node, list) else node

    return walk(end)


def _repair_repeated(data: dict[str, Any], compared: Mapping[str, str]) -> list[str]:
    sequence = data.get("sequence")
    if sequence:  # its last response repeats: numbers tried high go to zero, else a person
        last = sequence[-1] if isinstance(sequence[-1], dict) else {}
        if compared or not is_high(last.get("json")):
            return []
        sequence[-1] = {**last, "json": numbers_to(last["json"], 0)}
        return [f"/sequence/{len(sequence) - 1}/json"]
    first = {k: data[k] for k in ("status", "headers", "json", "text") if k in data}
    if "json" not in first:
        return text_pages_end(data, first)
    ended = _ended(first["json"], compared)
    if ended == first["json"] and not compared:  # nothing else ends it (repair_polls.py)
        ended = numbers_to(ended, HIGH) or ended
    data["sequence"] = [first, {**first, "json": ended}]
    for key in ("json", "text"):
        data.pop(key, None)
    return ["/sequence/1/json"]


def _compared(records: Sequence[Mapping[str, Any]], entry: int) -> dict[str, str]:
    """Leaf pointer -> the value the program compared it with (a word for done preferred)."""
    out: dict[str, str] = {}
    for r in records:
        at, against = r.get("at"), r.get("against")
        if r.get("kind") != "compare" or r.get("entry") != entry:
            continue
        fits = isinstance(at, str) and isinstance(against, str)
        if fits and (at not in out or str(against).lower() in _DONE):
            out[str(at)] = str(against)
    return out


def describe(record: Mapping[str, Any]) -> str:
    """An observation in words ("" for one that is not a missed read, e.g. a comparison)."""
    kind, at = record.get("kind"), record.get("at", "")
    if kind == "key":
        if record.get("via") != "[]" and _QUIET.match(str(record.get("key"))):
            return ""  # how a healthy response looks (no "error" key)
        shapes = {"[]": "[{!r}]", "get": ".get({!r})", "in": "{!r} in"}
        via = shapes.get(str(record.get("via")), "{!r}")
        return f"read {via.format(record.get('key'))} on {at or '/'} missed"
    if kind == "index":
        return f"read {record.get('wanted')} items of {at or '/'} (it had {record.get('length')})"
    if kind == "parse":
        return f"{record.get('parser')}() of {record.get('value')!r} at {at or 'the text'} failed"
    if kind == "type" and record.get("wanted"):
        use = record.get("use")
        found = record.get("found")
        return f"used {at or 'the body'} ({found}) as a {record.get('wanted')} ({use})"
    if kind == "type" and isinstance(use := record.get("use"), str) and hasattr(str, use):
        return f"used {at or 'the body'} ({record.get('found')}) as text (.{use})"
    if kind == "selector":
        return describe_selector(record)
    if kind == "repeated":
        return f"served {record.get('count')} times: a loop the response never ends"
    return ""


def _why(record: Mapping[str, Any], failure: str) -> str:
    return f"{describe(record)}{f' ({failure})' if failure else ''}"


def _one(
    data: dict[str, Any], record: Mapping[str, Any], records: Sequence[Mapping[str, Any]]
) -> list[str]:
    kind = record.get("kind")
    rule = _BODY_RULES.get(str(kind))
    if rule is not None:
        changed: list[str] = []
        for about in pages_of(data, record):
            changed += [p for p in rule(data, about) if p not in changed]
        return changed
    if kind == "selector":
        root = _body_root(data, record)
        return repair_selector(root[0], root[1], record) if root is not None else []
    if kind == "repeated":
        return _repair_repeated(data, _compared(records, int(record["entry"])))
    return []


_BODY_RULES = {
    "key": _repair_key,
    "index": _repair_index,
    "parse": _repair_parse,
    "type": _repair_type,
}


def _records(observations: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The observation records of a plain shape (the program wrote them: anything else is
    dropped, never an error of automock's)."""
    misses = observations.get("misses")
    if not isinstance(misses, list):
        return []
    return [
        m
        for m in misses[:_MAX_RECORDS]
        if isinstance(m, dict)
        and type(m.get("entry")) is int
        and all(isinstance(k, str) for k in m)
        and len(json.dumps(m)) <= _MAX_RECORD
    ]


def repair_plan(
    plan: Plan,
    observations: Mapping[str, Any],
    *,
    round: int,
    failure: str = "",
) -> tuple[Plan, tuple[Repair, ...]]:
    """``plan`` with every observation it can act on repaired (module docstring), and what
    was done; ``failure`` (the run's exception and where) is quoted in each reason."""
    records = _records(observations)
    entries = [replace(e, data=copy.deepcopy(dict(e.data))) for e in plan.entries]
    repairs: list[Repair] = []
    for record in records:
        index = int(record["entry"])
        if not 0 <= index < len(entries) or entries[index].strategy != "stub_http":
            continue
        if record.get("kind") == "shadowed":
            repairs += _repair_shadowed(entries, record, round)
            continue
        entry = entries[index]
        if not isinstance(entry.data, dict):
            continue
        had_sequence = bool(entry.data.get("sequence"))
        changed = _one(entry.data, record, records)
        if not had_sequence and entry.data.get("sequence"):  # the body moved into it
            moved = tuple(
                "/sequence/0" + g if g[:5] in ("/json", "/text") else g for g in entry.guessed
            )
            entry = entries[index] = replace(entry, guessed=moved)
        why = _why(record, failure)
        for pointer in changed:
            repairs.append(Repair(index, pointer, f"repaired {pointer}", why))
            entry = entries[index] = noted(entry, pointer, why, round)
    return replace(plan, entries=tuple(entries)), tuple(repairs)
