"""An output read as items: a sequence, a set, a grid's cells, and the numbers it is.

The relations (:mod:`~automock.properties.relations`) and the function's own words
(:mod:`~automock.properties.stated`) read outputs the same way: a list, a tuple or a
numpy vector is a sequence (:func:`as_sequence`); a set's items and a grid's cells (a
list of rows: a random matrix) are numbers to bound as a list's are (:func:`numbers_in`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["as_sequence", "numbers_in"]


def as_sequence(value: Any) -> list[Any] | None:
    """``value`` as a list when it is a list, a tuple or a numpy vector; else None."""
    if isinstance(value, list | tuple):
        return list(value)
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 1:
        return list(value.tolist())  # a numpy vector (a GA child): its plain elements
    return None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _held(value: Any) -> list[Any] | None:
    """``value``'s items when it is a sequence or a set (``{3, 7, 9}``: its numbers are
    bounded as a list's are); else None."""
    return list(value) if isinstance(value, set | frozenset) else as_sequence(value)


def numbers_in(value: Any) -> list[float] | None:
    """The numbers ``value`` is: one number, a sequence's or set's items ([] for none), or a
    grid's cells; None when it is something else or holds anything but numbers."""
    single = _number(value)
    if single is not None:
        return [single]
    items = _held(value)
    if items and all(isinstance(row, list | tuple) for row in items):
        items = [cell for row in items for cell in row]  # a grid: its cells
    found = [_number(v) for v in items or ()]
    return None if items is None or None in found else [f for f in found if f is not None]
