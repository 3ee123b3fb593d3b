"""``automock batch`` / ``execute_many``: the warm fork pool, zygote, pass@k, Ray."""

from __future__ import annotations

__all__: list[str] = []
