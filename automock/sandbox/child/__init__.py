"""The one child core: what runs inside the sandbox, and how its end is classified."""

from __future__ import annotations

__all__: list[str] = []
