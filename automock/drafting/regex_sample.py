"""A short string a regular expression matches, for a drafted text body.

``re.search(r"Price: \\$(\\d+\\.\\d+)", r.text)`` gets a body containing
``Price: $12.34``-like text, so the code's main path runs. Built from
:mod:`re`'s parser (``re._parser``); unsupported constructs give ``None``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["sample"]

_CATEGORY = {"CATEGORY_DIGIT": "7", "CATEGORY_SPACE": " ", "CATEGORY_WORD": "w"}


def _parser() -> Any:
    import importlib

    try:
        return importlib.import_module("re._parser")  # Python >= 3.11
    except ImportError:  # pragma: no cover
        return importlib.import_module("sre_parse")


def _emit(items: Any, parser: Any, salt: int) -> str:
    out: list[str] = []
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(arg))
        elif name == "NOT_LITERAL":
            out.append("a" if arg != ord("a") else "b")
        elif name == "ANY":
            out.append("x")
        elif name == "IN":
            out.append(_class(arg, salt))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = arg
            count = max(low, min(high, 2 + salt % 2))
            out.append("".join(_emit(sub, parser, salt + i) for i in range(count)))
        elif name == "SUBPATTERN":
            out.append(_emit(arg[-1], parser, salt))
        elif name == "BRANCH":
            out.append(_emit(arg[1][0], parser, salt))
        elif name in ("AT", "ASSERT", "ASSERT_NOT", "GROUPREF"):
            continue
        else:
            raise ValueError(name)
    return "".join(out)


def _class(items: Any, salt: int) -> str:
    negate = any(str(op) == "NEGATE" for op, _ in items)
    for op, arg in items:
        name = str(op)
        if name == "LITERAL" and not negate:
            return chr(arg)
        if name == "RANGE" and not negate:
            low, high = arg
            return chr(low + (salt % (high - low + 1)))
        if name == "CATEGORY" and not negate:
            return _CATEGORY.get(str(arg), "a")
    return "a" if negate else "x"


def sample(pattern: str, salt: int = 0) -> str | None:
    """A string ``pattern`` matches (``re.search``), or ``None`` when it cannot be built."""
    import re

    parser = _parser()
    try:
        text = _emit(parser.parse(pattern), parser, salt)
        return text if re.search(pattern, text) else None
    except (ValueError, TypeError, re.error, RecursionError):
        return None
