"""What a trial run saw go wrong with a drafted plan: the program's claims, for drafting only.

``observed_reads()`` is entered by the sandbox child of a *trial* run (the drafting loop,
:mod:`automock.pipeline.drafting_loop`); outside it nothing here is active. While it is:

- every stub body the network session serves is remembered (text -> plan entry, response);
- ``json.loads`` (and so ``json.load``, requests' and httpx's ``.json()``) gives back such a
  body as dict and list subclasses that note each read that missed: a key looked up and
  absent (``[]``, ``.get``, ``in``), a list position past the end, a slice longer than
  the list, and each string a string compared unequal to (what a polling loop waits for);
- a BeautifulSoup selector that finds nothing in a served body
  (:mod:`automock.runtime.observations_markup`);
- a stub served more than :data:`REPEAT_LIMIT` times ends the run (a polling or paging
  loop that the draft never lets finish), so the trial is short and says why;
- each stub that is never served because a higher-ranked one serves its request;
- the exception that ended the program, its frames inside the program's own directory,
  and (for ``int()``/``float()``/``strptime`` on a string) the stub leaves, or text bodies,
  that hold that string (:mod:`automock.runtime.observations_parse`).

Everything here runs inside the program's process, so the parent treats
:func:`snapshot` as the program's word: it steers drafting, never a verdict.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from collections.abc import Iterator
from typing import Any

__all__ = [
    "REPEAT_LIMIT",
    "RepeatedRequest",
    "note_exception",
    "note_served",
    "note_stubs",
    "observed_reads",
    "observing",
    "snapshot",
]

REPEAT_LIMIT = 40  # one stub served more often than this in a trial run: a loop it never ends
_MAX_MISSES = 200
_ENTRY = re.compile(r"entries\[(\d+)\]")


class RepeatedRequest(BaseException):
    """Ends a trial run whose program asks one stub again and again (a loop the draft feeds)."""


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.bodies: dict[str, tuple[int, int]] = {}
        self.parsed: dict[tuple[int, int], Any] = {}
        self.served: dict[int, int] = {}
        self.misses: list[dict[str, Any]] = []
        self.seen: set[tuple[Any, ...]] = set()
        self.exception: dict[str, Any] | None = None
        self.loads: Any = json.loads  # the real one (the trial's is patched)

    def miss(self, record: dict[str, Any]) -> None:
        key = tuple(sorted((k, repr(v)) for k, v in record.items()))
        with self.lock:
            if key in self.seen or len(self.misses) >= _MAX_MISSES:
                return
            self.seen.add(key)
            self.misses.append(record)


_active: _State | None = None
_last: _State | None = None


def _pointer(path: tuple[Any, ...]) -> str:
    """A JSON pointer into the response body (``/items/0/price``)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _type_name(value: Any) -> str:
    return "none" if value is None else type(value).__name__


class _Dict(dict[Any, Any]):
    """A stub body's object: a key looked up and absent is noted."""

    __slots__ = ("_at",)
    _at: tuple[int, int, tuple[Any, ...]]

    def _note(self, key: Any, via: str, default: Any = None) -> None:
        state = _active
        if state is None or not isinstance(key, str):
            return
        entry, response, path = self._at
        record = {"kind": "key", "entry": entry, "response": response, "via": via}
        record.update(at=_pointer(path), key=key, present=sorted(map(str, self))[:20])
        if via == "get":
            record["default"] = _type_name(default)
        state.miss(record)

    def __getitem__(self, key: Any) -> Any:
        try:
            return dict.__getitem__(self, key)
        except KeyError:
            if type(key) is int:  # ``body[0]``: the code takes the object for a list
                self._as_list()
            self._note(key, "[]")
            raise

    def _as_list(self) -> None:
        if (state := _active) is not None:
            entry, response, path = self._at
            record = {"kind": "type", "entry": entry, "response": response, "at": _pointer(path)}
            record.update(use="__getitem__", wanted="list", found="dict")
            state.miss(record)

    def get(self, key: Any, default: Any = None) -> Any:
        if not dict.__contains__(self, key):
            self._note(key, "get", default)
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        found = dict.__contains__(self, key)
        if not found:
            self._note(key, "in")
        return found


class _List(list[Any]):
    """A stub body's array: a position past the end, or a slice longer than it, is noted."""

    __slots__ = ("_at",)
    _at: tuple[int, int, tuple[Any, ...]]

    def __getitem__(self, index: Any) -> Any:
        size = len(self)
        if isinstance(index, int) and not -size <= index < size:
            self._note("index", index + 1 if index >= 0 else -index)
        elif isinstance(index, slice) and index.stop is not None and index.step is None:
            start = index.start or 0
            if start >= 0 and index.stop > size and index.stop - start <= 100:
                self._note("slice", index.stop)
        return list.__getitem__(self, index)

    def _note(self, via: str, wanted: int) -> None:
        if (state := _active) is None:
            return
        entry, response, path = self._at
        record = {"kind": "index", "entry": entry, "response": response, "via": via}
        record.update(at=_pointer(path), wanted=wanted, length=len(self))
        state.miss(record)


_DICT_USES = frozenset({"get", "items", "keys", "values", "setdefault", "__getitem__str"})
_LIST_USES = frozenset({"append", "extend", "sort", "index", "__getitem__int", "__iter__"})


class _Wrong:
    """A stub body's number or string used as the wrong type (``.get`` on a number, a number
    indexed or iterated): noted with the type its use needs, then Python's own error."""

    _at: tuple[int, int, tuple[Any, ...]]

    @classmethod
    def plain(cls) -> str:  # the built-in type it stands for (``int`` for ``_Int``)
        return next(c.__name__ for c in cls.__mro__ if c.__module__ == "builtins")

    def _wrong(self, use: str) -> None:
        if (state := _active) is None:
            return
        wanted = "dict" if use in _DICT_USES else "list" if use in _LIST_USES else ""
        entry, response, path = self._at
        record = {"kind": "type", "entry": entry, "response": response, "at": _pointer(path)}
        used = use.removesuffix("str").removesuffix("int")
        state.miss(record | {"use": used, "wanted": wanted, "found": self.plain()})

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("_"):
            self._wrong(name)
        raise AttributeError(f"{self.plain()!r} object has no attribute {name!r}")


class _Float(_Wrong, float):
    def __getitem__(self, key: Any) -> Any:
        self._wrong("__getitem__" + ("str" if isinstance(key, str) else "int"))
        raise TypeError("'float' object is not subscriptable")

    def __iter__(self) -> Any:
        self._wrong("__iter__")
        raise TypeError("'float' object is not iterable")


class _Int(_Wrong, int):
    def __getitem__(self, key: Any) -> Any:
        self._wrong("__getitem__" + ("str" if isinstance(key, str) else "int"))
        raise TypeError("'int' object is not subscriptable")

    def __iter__(self) -> Any:
        self._wrong("__iter__")
        raise TypeError("'int' object is not iterable")


class _Str(_Wrong, str):
    """A stub body's string: an (in)equality test with another string is noted (what a
    polling loop waits for)."""

    _at: tuple[int, int, tuple[Any, ...]]

    def _note(self, other: str) -> None:
        if (state := _active) is not None:
            entry, response, path = self._at
            record = {"kind": "compare", "entry": entry, "response": response}
            record.update(at=_pointer(path), value=str(self), against=other)
            state.miss(record)

    def __eq__(self, other: object) -> bool:
        same = str.__eq__(self, other)
        if same is False and type(other) is str:
            self._note(other)
        return same  # NotImplemented for a non-string

    def __ne__(self, other: object) -> bool:
        differ = str.__ne__(self, other)
        if differ is True and type(other) is str:
            self._note(other)
        return differ

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            self._wrong("__getitem__str")
        return str.__getitem__(self, key)

    __hash__ = str.__hash__


def _track(value: Any, entry: int, response: int, path: tuple[Any, ...] = ()) -> Any:
    """``value`` (parsed JSON) with its objects, arrays and strings as the noting subclasses."""
    kind = {str: _Str, float: _Float, int: _Int}.get(type(value))
    if kind is not None:
        leaf = kind(value)
        leaf._at = (entry, response, path)
        return leaf
    if type(value) is dict:
        out: Any = _Dict({k: _track(v, entry, response, (*path, k)) for k, v in value.items()})
    elif type(value) is list:
        out = _List(_track(v, entry, response, (*path, i)) for i, v in enumerate(value))
    else:
        return value
    out._at = (entry, response, path)
    return out


def note_served(label: str, response: int, body: bytes, charset: str = "utf-8") -> None:
    """A stub (its plan ``label``) served ``body`` (in ``charset``) as its ``response``-th
    response (-1: the only one); ends the run once one stub was served more than
    :data:`REPEAT_LIMIT` times."""
    state = _active
    found = _ENTRY.search(label)
    if state is None or found is None:
        return
    entry = int(found[1])
    with state.lock:
        state.bodies[body.decode(charset, "replace")] = (entry, response)
        count = state.served[entry] = state.served.get(entry, 0) + 1
    if count > REPEAT_LIMIT:
        state.miss({"kind": "repeated", "entry": entry, "count": count})
        raise RepeatedRequest(f"plan entries[{entry}] served {count} times: a loop it never ends")


def observing() -> bool:
    """Whether a trial run is being observed (the callers skip their work otherwise)."""
    return _active is not None


def note_stubs(pairs: list[tuple[str, str]]) -> None:
    """Stubs never served: (its label, the label of the higher-ranked stub that serves in its
    place), from :func:`automock.runtime.http_match.shadowed`."""
    state = _active
    for mine, theirs in pairs if state is not None else ():
        found, by = _ENTRY.search(mine), _ENTRY.search(theirs)
        if state is not None and found is not None and by is not None:
            state.miss({"kind": "shadowed", "entry": int(found[1]), "by": int(by[1])})


def _loads(original: Any) -> Any:
    def loads(s: Any, *args: Any, **kwargs: Any) -> Any:
        value = original(s, *args, **kwargs)
        state = _active
        if state is None or args or kwargs.get("object_hook") or kwargs.get("object_pairs_hook"):
            return value
        origin = _origin(state, s)
        return value if origin is None else _track(value, *origin)

    return loads


def note_exception(exc: BaseException, root: str) -> dict[str, Any]:
    """Note the exception that ended the program, its frames inside ``root`` (the program's
    directory) and the stub values it failed to parse; then :func:`snapshot`."""
    state = _active
    if state is None:
        return {}
    frames = []
    tb = exc.__traceback__
    prefix = os.path.join(os.path.realpath(root), "")
    while tb is not None:
        code = tb.tb_frame.f_code
        if os.path.realpath(code.co_filename).startswith(prefix):
            rel = os.path.relpath(os.path.realpath(code.co_filename), prefix)
            frames.append({"file": rel, "line": tb.tb_lineno, "function": code.co_name})
        tb = tb.tb_next
    state.exception = {"type": type(exc).__name__, "message": str(exc)[:300]}
    state.exception["frames"] = frames[-20:]
    from automock.runtime.observations_frames import failed_reads
    from automock.runtime.observations_parse import parse_misses

    parse_misses(exc, state.bodies, state.loads, _pointer, state.miss)

    failed_reads(exc, state.bodies, _pointer, state.miss)
    return snapshot()


def snapshot() -> dict[str, Any]:
    """What the last (or current) trial run observed, as plain JSON data ({} if none)."""
    state = _active or _last
    if state is None:
        return {}
    with state.lock:
        return {
            "misses": list(state.misses),
            "served": {str(k): v for k, v in sorted(state.served.items())},
            "exception": state.exception,
        }


@contextlib.contextmanager
def observed_reads() -> Iterator[None]:
    """Note, for the drafting loop, the reads of stub bodies that missed (module docstring)."""
    global _active, _last
    from automock.runtime._base import Undo
    from automock.runtime.observations_markup import observe_soup

    state = _State()
    original = json.loads
    _active = _last = state
    json.loads = _loads(original)
    undo = Undo()
    observe_soup(undo, lambda markup: _origin(state, markup), state.miss)
    try:
        yield
    finally:
        undo.run()
        json.loads = original
        _active = None


def _origin(state: _State, markup: Any) -> tuple[int, int] | None:
    """The stub (entry, response) whose served body ``markup`` is, if any."""
    if isinstance(markup, bytes | bytearray):
        markup = bytes(markup).decode("utf-8", "replace")
    return state.bodies.get(markup) if isinstance(markup, str) else None
