"""Kernel mechanisms of the sandbox: namespaces, mounts, limits, uid, the workdir."""

from __future__ import annotations

__all__: list[str] = []
