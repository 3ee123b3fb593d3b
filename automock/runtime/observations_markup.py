"""BeautifulSoup selectors that matched nothing on a stub's body, noted in a trial run.

Part of :mod:`automock.runtime.observations` (the drafting loop's trial runs only): a
soup made from the text of a served stub body remembers that stub; a ``find``,
``find_all``, ``select`` or ``select_one`` on it (or on any tag inside it) that finds
nothing is noted with its arguments, so the repair can add an element they match.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from automock.runtime._base import Undo
from automock.runtime._imports import when_imported

__all__ = ["observe_soup"]

_CALLS = ("find", "find_all", "select", "select_one")
_depth = threading.local()


def _selector(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The call's arguments as plain data: ``css`` for select, ``tag`` and ``attrs`` else."""
    if name.startswith("select"):
        css = args[0] if args else kwargs.get("selector")
        return {"css": css} if isinstance(css, str) else {}
    tag = args[0] if args else kwargs.get("name")
    attrs = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
    skip = ("limit", "recursive", "string", "text")
    attrs = {**attrs, **{k: v for k, v in kwargs.items() if k not in skip}}
    plain = {str(k): _plain(v) for k, v in attrs.items() if _plain(v) is not None}
    out: dict[str, Any] = {"tag": tag if isinstance(tag, str) else "", "attrs": plain}
    wanted = kwargs.get("string", kwargs.get("text"))  # the element's own text must match
    pattern = getattr(wanted, "pattern", None)
    if isinstance(wanted, str) or isinstance(pattern, str):
        out.update(
            string=pattern if isinstance(pattern, str) else wanted, regex=pattern is not None
        )
    return out


def _plain(value: Any) -> str | None:
    """An attribute filter as one string: a list of values matches any one, so its first."""
    if isinstance(value, list | tuple) and value and isinstance(value[0], str):
        return value[0]
    return value if isinstance(value, str) else None


def _compound(tag: Any) -> str:
    """``div.card#main``: the tag a search started from, as one CSS compound selector."""
    attrs = getattr(tag, "attrs", None)
    attrs = attrs if isinstance(attrs, dict) else {}
    classes = attrs.get("class") or []
    classes = classes.split() if isinstance(classes, str) else classes
    ident = attrs.get("id")
    text = str(getattr(tag, "name", "") or "") + "".join(f".{c}" for c in classes)
    return text + (f"#{ident}" if isinstance(ident, str) else "")


def _patch(
    undo: Undo, bs4: Any, origin_of: Callable[[Any], tuple[int, int] | None], note: Any
) -> None:
    soups: dict[int, tuple[int, int]] = {}
    soup_class = bs4.BeautifulSoup
    original_init = soup_class.__init__

    def init(self: Any, markup: Any = "", *args: Any, **kwargs: Any) -> None:
        original_init(self, markup, *args, **kwargs)
        origin = origin_of(markup)
        if origin is not None:
            soups[id(self)] = origin

    def wrap(name: str, original: Any) -> Any:
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            depth = getattr(_depth, "n", 0)
            _depth.n = depth + 1
            try:
                found = original(self, *args, **kwargs)
            finally:
                _depth.n = depth
            if depth == 0 and not found:
                root = self
                while getattr(root, "parent", None) is not None:
                    root = root.parent
                origin = soups.get(id(root))
                if origin is not None:
                    record = {"kind": "selector", "entry": origin[0], "response": origin[1]}
                    within = _compound(self) if self is not root else ""
                    note(
                        {**record, "call": name, "within": within, **_selector(name, args, kwargs)}
                    )
            return found

        return call

    undo.setattr(soup_class, "__init__", init)
    tag_class = bs4.element.Tag
    for name in _CALLS:
        undo.setattr(tag_class, name, wrap(name, getattr(tag_class, name)))


def observe_soup(undo: Undo, origin_of: Callable[[Any], tuple[int, int] | None], note: Any) -> None:
    """Patch bs4 (now or when imported) until ``undo``: misses go to ``note(record)``;
    ``origin_of(markup)`` names the stub (entry, response) whose body it is, if any."""
    when_imported(undo, {"bs4": lambda module: _patch(undo, module, origin_of, note)})
