"""Unknown keys in a plan: refused by name, with the closest valid one.

A typo (``data.jsno``, ``stratgy``) must not pass silently and then crash the
program on an empty body, nor be reported as the field it failed to set; each
level of a plan lists the keys it accepts and calls :func:`refuse_unknown`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from automock.errors import PlanError

__all__ = ["ANNOTATIONS", "closest", "refuse_unknown"]

# free-text keys a person (or a drafter) may add anywhere an object is accepted
ANNOTATIONS = ("comment", "note")


def closest(value: object, options: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the valid option nearest ``value`` ("" when none is near)."""
    if not isinstance(value, str):
        return ""
    found = difflib.get_close_matches(value, list(options), n=1, cutoff=0.6)
    return f"; did you mean {found[0]!r}?" if found else ""


def refuse_unknown(data: Any, known: Iterable[str], where: str, what: str = "field") -> None:
    """Raise :class:`PlanError` for the first key of ``data`` not in ``known``.

    The message names the key's path and suggests the closest valid name when
    one is close (``plan.entries[0].data.jsno: unknown field; did you mean 'json'?``).
    """
    if not isinstance(data, dict):
        return
    known = tuple(known)
    allowed = [*known, *ANNOTATIONS]
    unknown = sorted(str(k) for k in data if k not in allowed)
    if not unknown:
        return
    key = unknown[0]
    hint = closest(key, allowed)[2:] or f"expected one of {', '.join(known)}"
    raise PlanError(f"{where}.{key}: unknown {what}; {hint}"[:400])
