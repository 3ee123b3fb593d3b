"""What the failing expression of a trial run read: stub values behind a ``TypeError`` or an
``IndexError`` that Python raised in C, where no noting subclass sees the use.

Two kinds, both found by reading the expression that failed (its source span, from the
traceback's position) and looking up, in the failing frame, the constant-subscript chains
it holds (``user["name"]["last"]``, ``child[1]``) without calling any program code:

- ``type`` with ``wanted="str"``: a stub body's number that the code joins to text
  (``"a" + n``, ``" ".join([..., n])``, ``str.format`` misuse): its class name (the noting
  number classes of :mod:`automock.runtime.observations`) is in the ``TypeError``;
- ``children``: an XML element (ElementTree, lxml) indexed past its last child
  (``root[0]``, ``item[1]``): its tag and how many children the code reads, with the
  served body whose text holds that tag.
"""

from __future__ import annotations

import ast
import contextlib
import linecache
from collections.abc import Callable, Iterator, Mapping
from types import FrameType
from typing import Any

__all__ = ["failed_reads"]

_NUMBERS = ("_Float", "_Int")
_MAX_SPAN = 2000  # characters of source read for the failing expression


def _span(frame: FrameType, lasti: int) -> str:
    """The source of the expression the frame failed in (its whole line as a fallback)."""
    code = frame.f_code
    with contextlib.suppress(IndexError, ValueError, TypeError):
        start, end, col, end_col = list(code.co_positions())[lasti // 2]
        if start is not None and end is not None and col is not None and end_col is not None:
            lines = [linecache.getline(code.co_filename, n) for n in range(start, end + 1)]
            if len(lines) == 1:
                return lines[0][col:end_col][:_MAX_SPAN]
            lines[0], lines[-1] = lines[0][col:], lines[-1][:end_col]
            return "".join(lines)[:_MAX_SPAN]
    return linecache.getline(code.co_filename, frame.f_lineno).strip()[:_MAX_SPAN]


def _chains(source: str) -> Iterator[ast.Subscript]:
    """The subscripts with a constant key in ``source`` (nothing if it does not parse)."""
    with contextlib.suppress(SyntaxError, ValueError):
        tree = ast.parse(source.strip(), mode="eval")
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                yield node


_MISSING = object()


def _value(node: ast.expr, names: Mapping[str, Any]) -> Any:
    """``node`` (a name, or constant subscripts of one) looked up on plain data only."""
    if isinstance(node, ast.Name):
        return names.get(node.id, _MISSING)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        base, key = _value(node.value, names), node.slice.value
        if isinstance(base, dict) and isinstance(key, str | int):
            return dict.get(base, key, _MISSING)
        if isinstance(base, list) and type(key) is int and -len(base) <= key < len(base):
            return list.__getitem__(base, key)
    return _MISSING


def _names(frame: FrameType) -> dict[str, Any]:
    return {**frame.f_builtins, **frame.f_globals, **frame.f_locals}


def _as_text(exc: BaseException, frame: FrameType, source: str) -> Iterator[dict[str, Any]]:
    message = str(exc)
    if not isinstance(exc, TypeError) or "str" not in message.replace("_Str", ""):
        return
    if not any(n in message for n in _NUMBERS):
        return
    names = _names(frame)
    for node in _chains(source):
        leaf = _value(node, names)
        at = getattr(leaf, "_at", None)
        if type(leaf).__name__ in _NUMBERS and type(leaf).__name__ in message and at:
            entry, response, path = at
            yield {"kind": "type", "entry": entry, "response": response, "path": path} | {
                "use": "str",
                "wanted": "str",
                "found": type(leaf).plain(),
            }


def _children(
    exc: BaseException, frame: FrameType, source: str, bodies: Mapping[str, tuple[int, int]]
) -> Iterator[dict[str, Any]]:
    if not isinstance(exc, IndexError):
        return
    names = _names(frame)
    for node in _chains(source):
        index, element = node.slice.value, _value(node.value, names)  # type: ignore[attr-defined]
        tag = getattr(element, "tag", None)
        if type(index) is not int or not isinstance(tag, str) or not 0 <= index < 20:
            continue
        with contextlib.suppress(TypeError):
            if len(element) > index:
                continue
            found = next((v for k, v in bodies.items() if f"<{tag}" in k), None)
            if found is not None:
                yield {"kind": "children", "entry": found[0], "response": found[1]} | {
                    "tag": tag,
                    "wanted": index + 1,
                    "length": len(element),
                }


def failed_reads(
    exc: BaseException,
    bodies: Mapping[str, tuple[int, int]],
    pointer: Callable[[tuple[Any, ...]], str],
    note: Callable[[dict[str, Any]], None],
) -> None:
    """Note (``note``) the ``type`` (number used as text) and ``children`` records the
    exception shows, from the innermost frame whose failing expression holds any."""
    if not isinstance(exc, TypeError | IndexError):
        return
    tbs, tb = [], exc.__traceback__
    while tb is not None:
        tbs.append(tb)
        tb = tb.tb_next
    for tb in reversed(tbs[-10:]):
        frame = tb.tb_frame
        source = _span(frame, tb.tb_lasti)
        records = list(_as_text(exc, frame, source)) + list(_children(exc, frame, source, bodies))
        for record in records:
            if "path" in record:
                record["at"] = pointer(record.pop("path"))
            note(record)
        if records:
            return
