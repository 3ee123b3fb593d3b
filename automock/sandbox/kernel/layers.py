"""One isolation layer's status, as reported by every sandbox entry point."""

from __future__ import annotations

from dataclasses import dataclass

from automock._serialize import JsonMixin

__all__ = ["LayerStatus"]


@dataclass(frozen=True, slots=True)
class LayerStatus(JsonMixin):
    """One isolation layer: whether it is in force, and what it does or why not."""

    name: str
    active: bool
    detail: str
