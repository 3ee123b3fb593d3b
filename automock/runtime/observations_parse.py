"""A drafted value the program failed to parse, traced back to the stub body that held it.

``int("abc")``, ``float("abc")``, ``strptime("abc", fmt)``, ``datetime.fromisoformat("abc")``
and ``ipaddress.ip_address("abc")`` raise a ``ValueError`` that quotes ``"abc"``. In a JSON body each leaf holding that string is noted (its pointer is
``at``); in a text body (XML, HTML, CSV: no leaves) the body itself, with ``at`` empty, when
the string is long enough not to be markup syntax. The record carries the parser and, for
``strptime``, the format, so the repair writes a value of the shape the program wanted
(:func:`automock.drafting.repair_parsed.parsed_value`).
"""

from __future__ import annotations

import ast
import contextlib
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = ["parse_misses"]

_PARSE = re.compile(
    r"^(?:could not convert string to (float): |invalid literal for (int)\(\) with base \d+: )"
    r"(?P<value>'.*'|\".*\")$"
)
# the other parsers of a leaf whose message quotes it: ``strptime`` (with its format),
# ``datetime.fromisoformat`` (and ``date``/``time``'s), ``ipaddress.ip_address``, dateutil's
# ``parse``
_OTHERS = (
    (
        re.compile(r"^time data (?P<value>'.*'|\".*\") does not match format (?P<format>'.*')$"),
        "strptime",
    ),
    (re.compile(r"^Invalid isoformat string: (?P<value>'.*'|\".*\")$"), "isoformat"),
    (
        re.compile(r"^(?P<value>'.*'|\".*\") does not appear to be an IPv[46]( or IPv6)? address$"),
        "ip_address",
    ),
    (re.compile(r"^Unknown string format: (?P<value>.+)$"), "isoformat"),
)
_SHORTEST_IN_TEXT = 4  # a shorter string may be a tag or attribute name in markup


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path, value


def _found_at(text: str, value: str, loads: Callable[[str], Any], pointer: Any) -> list[str]:
    try:
        leaves = list(_leaves(loads(text)))
    except ValueError:  # not JSON: the value has no path in it
        return [""] if len(value) >= _SHORTEST_IN_TEXT and value in text else []
    return [pointer(p) for p, v in leaves if type(v) is str and str.__eq__(v, value)]


def _matched(message: str) -> tuple[re.Match[str], str] | None:
    """The match of the message that quotes an unparsed string, and the parser it names."""
    found = _PARSE.match(message)
    if found is not None:
        return found, found[1] or found[2]
    for pattern, parser in _OTHERS:
        match = pattern.match(message)
        if match is not None:
            return match, parser
    return None


def parse_misses(
    exc: BaseException,
    bodies: Mapping[str, tuple[int, int]],
    loads: Callable[[str], Any],
    pointer: Callable[[tuple[Any, ...]], str],
    note: Callable[[dict[str, Any]], None],
) -> None:
    """Note (``note``) a ``parse`` record for each served body (``bodies``: text -> entry,
    response) that holds the string ``exc`` says could not be parsed."""
    matched = _matched(str(exc) if isinstance(exc, ValueError) else "")
    if matched is None:
        return
    match, parser = matched
    with contextlib.suppress(ValueError, SyntaxError):
        quoted = match["value"]
        value = ast.literal_eval(quoted) if quoted[:1] in "'\"" else quoted
        extra = {"parser": parser}
        if parser == "strptime":
            extra["format"] = ast.literal_eval(match["format"])
        if not isinstance(value, str):
            return
        for text, (entry, response) in list(bodies.items()):
            for at in _found_at(text, value, loads, pointer):
                record = {"kind": "parse", "entry": entry, "response": response, "at": at}
                note({**record, "value": value, **extra})
