"""The plain-data channel between a pair's test process and its candidate process.

Only plain data crosses: ``None``, ``bool``, ``int``, ``float``, ``complex``,
``str``, ``bytes``, ``list``, ``tuple``, ``dict``, ``set`` and ``frozenset``,
nested, of *exactly* those types (a subclass of ``int`` with its own
``__eq__`` is not plain data) and bounded in size and depth. Nothing is
pickled, ever: a message is JSON in which every container is a tagged array,
so the decoder builds builtin values and nothing else.

Messages are framed by a 4-byte big-endian length. The reader is the
trusted side: whatever the candidate sends (garbage, a huge or endless
frame, deep nesting, the wrong types) becomes a :class:`ChannelError`,
never a crash and never a value of a type the tests did not expect.
"""

from __future__ import annotations

import base64
import json
import os
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_FRAME",
    "MAX_ITEMS",
    "ChannelError",
    "NotPlainData",
    "decode",
    "encode",
    "read_frame",
    "rehearse",
    "write_frame",
]

MAX_FRAME = 16 * 1024 * 1024  # bytes in one message
MAX_DEPTH = 64  # nesting of containers
MAX_ITEMS = 1_000_000  # values in one message, all levels together

_SCALARS = (type(None), bool, int, float, str)


class ChannelError(Exception):
    """What came over the channel is not a well-formed message of plain data."""


class NotPlainData(ChannelError):
    """A value to send is not plain data (names the type and where it sits)."""


def encode(value: object) -> bytes:
    """``value`` as one message; :class:`NotPlainData` names what cannot cross."""
    budget = [MAX_ITEMS]
    try:
        tree = _to_tree(value, 0, budget, "the value")
        return json.dumps(tree, separators=(",", ":")).encode("utf-8")
    except ValueError as exc:  # an int of more digits than Python converts to text
        raise NotPlainData(f"the value cannot be encoded ({exc})") from None


def _to_tree(value: object, depth: int, budget: list[int], where: str) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise NotPlainData(f"more than {MAX_ITEMS} values in one message")
    kind = type(value)
    if kind in _SCALARS:
        if kind is str:
            return ["s", value]  # a bare JSON string is never a value: only a tag
        return value
    if depth >= MAX_DEPTH:
        raise NotPlainData(f"{where} is nested more than {MAX_DEPTH} levels deep")
    if kind is list or kind is tuple or kind is set or kind is frozenset:
        tag = {list: "l", tuple: "t", set: "S", frozenset: "F"}[kind]
        items = value
        return [tag, [_to_tree(x, depth + 1, budget, f"an item of {where}") for x in items]]  # type: ignore[attr-defined]
    if kind is dict:
        pairs = value.items()  # type: ignore[attr-defined]
        return [
            "d",
            [
                [
                    _to_tree(k, depth + 1, budget, f"a key of {where}"),
                    _to_tree(v, depth + 1, budget, f"a value of {where}"),
                ]
                for k, v in pairs
            ],
        ]
    if kind is bytes:
        return ["b", base64.b64encode(value).decode("ascii")]  # type: ignore[arg-type]
    if kind is complex:
        return ["c", [value.real, value.imag]]  # type: ignore[attr-defined]
    raise NotPlainData(f"{where} is a {_type_name(value)}, which is not plain data")


def _type_name(value: object) -> str:
    kind = type(value)
    module = getattr(kind, "__module__", "?")
    qual = getattr(kind, "__qualname__", "?")
    name = qual if module == "builtins" else f"{module}.{qual}"
    return str(name)[:100]


def decode(raw: bytes) -> Any:
    """The value one message carries; :class:`ChannelError` for anything malformed."""
    try:
        tree = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ChannelError(f"not a well-formed message ({type(exc).__name__})") from None
    budget = [MAX_ITEMS]
    return _from_tree(tree, 0, budget)


def _from_tree(tree: Any, depth: int, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise ChannelError(f"more than {MAX_ITEMS} values in one message")
    kind = type(tree)
    if tree is None or kind is bool or kind is int or kind is float:
        return tree
    if kind is not list or len(tree) != 2 or type(tree[0]) is not str:
        raise ChannelError(f"unexpected {kind.__name__} where a tagged value belongs")
    if depth >= MAX_DEPTH:
        raise ChannelError(f"nested more than {MAX_DEPTH} levels deep")
    tag, body = tree
    if tag == "s" and type(body) is str:
        return body
    if tag in ("l", "t", "S", "F") and type(body) is list:
        items = [_from_tree(x, depth + 1, budget) for x in body]
        try:
            return {"l": list, "t": tuple, "S": set, "F": frozenset}[tag](items)
        except TypeError:  # an unhashable member of a set
            raise ChannelError("a set member is not hashable") from None
    if tag == "d" and type(body) is list:
        out = {}
        for pair in body:
            if type(pair) is not list or len(pair) != 2:
                raise ChannelError("a dict entry is not a [key, value] pair")
            key = _from_tree(pair[0], depth + 1, budget)
            try:
                out[key] = _from_tree(pair[1], depth + 1, budget)
            except TypeError:
                raise ChannelError("a dict key is not hashable") from None
        return out
    if tag == "b" and type(body) is str:
        try:
            return base64.b64decode(body.encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError):
            raise ChannelError("bytes that are not base64") from None
    if tag == "c" and type(body) is list and len(body) == 2:
        real, imag = body
        if type(real) is float and type(imag) is float:
            return complex(real, imag)
    raise ChannelError(f"unknown or malformed tag {str(tag)[:20]!r}")


def rehearse() -> None:
    """Encode and decode one message of every kind once, in a process that forks the pairs'
    children: the JSON codec's lazily built state is then shared, not built in each child."""
    decode(encode(("ok", [None, True, 1, 2.5, "s", b"b", (1,), {"k": {1}}, frozenset(), 1j])))


def write_frame(fd: int, payload: bytes) -> None:
    """Send one message (a length, then the bytes); OSError if the other end is gone."""
    data = memoryview(len(payload).to_bytes(4, "big") + payload)
    while data:
        data = data[os.write(fd, data) :]


def read_frame(fd: int) -> bytes | None:
    """The next message, or None at end of file; :class:`ChannelError` for a bad frame."""
    head = _read_exactly(fd, 4)
    if head is None:
        return None
    size = int.from_bytes(head, "big")
    if size > MAX_FRAME:
        raise ChannelError(f"a message of {size} bytes (the limit is {MAX_FRAME})")
    body = _read_exactly(fd, size)
    if body is None:
        raise ChannelError("the message was cut short (the other end closed the channel)")
    return body


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks: list[bytes] = []
    left = size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            if not chunks and left == size:
                return None
            raise ChannelError("the message was cut short (the other end closed the channel)")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
