"""``automock run``: start one sandboxed program, watch it, report."""

from __future__ import annotations

__all__: list[str] = []
