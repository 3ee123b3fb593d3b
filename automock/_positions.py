"""How automock prints a place in source: ``line:column``, both 1-based, as compilers do.

Positions are stored 0-based in columns (``Touchpoint.col``, a plan entry's ``col``),
as ``ast`` and libcst give them; every printed form (``scan``, the run report, SARIF
regions) goes through here, so one call reads the same everywhere.
"""

from __future__ import annotations

__all__ = ["column", "position"]


def column(col: int) -> int:
    """The 1-based column printed for the 0-based ``col``."""
    return col + 1


def position(line: int, col: int) -> str:
    """``"12:9"`` for line 12, 0-based column 8."""
    return f"{line}:{column(col)}"
