"""The plain-data channel of a (code, tests) pair: what crosses, and what a reader survives."""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automock.sandbox.child.channel import (
    MAX_DEPTH,
    MAX_FRAME,
    ChannelError,
    NotPlainData,
    decode,
    encode,
    read_frame,
    write_frame,
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text()
    | st.binary()
    | st.complex_numbers(allow_nan=False)
)
hashable = st.recursive(
    scalars, lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=3), max_leaves=8
)
plain = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(hashable, inner, max_size=3)
        | st.sets(hashable, max_size=3)
        | st.frozensets(hashable, max_size=3)
    ),
    max_leaves=20,
)


def _same(a: object, b: object) -> bool:
    """Equal, of exactly the same types all the way down (1 == 1.0 == True would hide a bug)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())  # type: ignore[attr-defined,index]
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)  # type: ignore[arg-type]
    return a == b


@given(plain)
@settings(max_examples=200, deadline=None)
def test_plain_data_crosses_unchanged_types_included(value: object) -> None:
    assert _same(decode(encode(value)), value)


def test_nan_infinity_and_negative_zero_cross() -> None:
    out = decode(encode([math.nan, math.inf, -math.inf, -0.0]))
    assert math.isnan(out[0]) and out[1:3] == [math.inf, -math.inf]
    assert math.copysign(1.0, out[3]) == -1.0


class Liar:
    def __eq__(self, other: object) -> bool:
        return True


class LyingInt(int):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


@pytest.mark.parametrize(
    ("value", "named"),
    [
        (Liar(), "Liar"),
        (LyingInt(3), "LyingInt"),
        ([1, [2, Liar()]], "Liar"),
        ({"k": (x for x in ())}, "generator"),
        (print, "builtin_function_or_method"),
        (type("S", (str,), {})("x"), "S"),
        (10**5000, "cannot be encoded"),
    ],
    ids=[
        "liar",
        "int-subclass",
        "nested-liar",
        "generator",
        "function",
        "str-subclass",
        "huge-int",
    ],
)
def test_what_is_not_plain_data_is_refused_and_named(value: object, named: str) -> None:
    with pytest.raises(NotPlainData, match=named):
        encode(value)


def test_nesting_beyond_the_limit_is_refused() -> None:
    deep: list[object] = []
    for _ in range(MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(NotPlainData, match="nested"):
        encode(deep)


@given(st.binary(max_size=300))
@settings(max_examples=300, deadline=None)
def test_any_bytes_decode_to_plain_data_or_a_channel_error(raw: bytes) -> None:
    try:
        value = decode(raw)
    except ChannelError:
        return
    encode(value)  # what a reader accepted is plain data again (NotPlainData would fail here)


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000,
        b'["l", ' * 10_000 + b"1" + b"]" * 10_000,
        b'{"status": "passed"}',
        b'"bare string"',
        b'["d", [[["l", []], 1]]]',  # an unhashable key
        b'["S", [["l", []]]]',  # an unhashable set member
        b'["b", "%%%"]',
        b'["c", ["1", 2]]',
        b'["x", 1]',
        b"\xff\xfe",
    ],
)
def test_hostile_messages_are_channel_errors(raw: bytes) -> None:
    with pytest.raises(ChannelError):
        decode(raw)


def test_frames_round_trip_and_a_bad_frame_is_refused() -> None:
    r, w = os.pipe()
    try:
        write_frame(w, b"hello")
        write_frame(w, b"")
        assert read_frame(r) == b"hello"
        assert read_frame(r) == b""
        os.write(w, (MAX_FRAME + 1).to_bytes(4, "big"))
        with pytest.raises(ChannelError, match="limit"):
            read_frame(r)
        os.write(w, (10).to_bytes(4, "big") + b"abc")
        os.close(w)
        w = -1
        with pytest.raises(ChannelError, match="cut short"):
            read_frame(r)
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)
