"""Result values of a scan: frozen dataclasses that serialise to JSON."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from automock import _schemas as schemas
from automock._positions import position
from automock._serialize import JsonMixin

__all__ = ["KINDS", "FileScan", "Kind", "ScanResult", "Touchpoint"]

Kind = Literal["time", "random", "network", "database", "environment", "process", "filesystem"]
KINDS: tuple[Kind, ...] = (
    "time",
    "random",
    "network",
    "database",
    "environment",
    "process",
    "filesystem",
)


@dataclass(frozen=True, slots=True)
class Touchpoint(JsonMixin):
    """One place where code touches a source of nondeterminism.

    ``api`` is the fully qualified name (``datetime.datetime.now``) whatever
    alias the code used; ``symbol`` is the expression as written (``DT.now``).
    Lines are 1-based, columns 0-based (as in ``ast``).
    """

    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    kind: Kind
    api: str
    symbol: str
    reason: str

    @property
    def position(self) -> str:
        """``line:column`` as printed (1-based column, :func:`automock._positions.position`)."""
        return position(self.line, self.col)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Touchpoint:
        return cls(**{k: data[k] for k in cls.__slots__})  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class FileScan(JsonMixin):
    """The outcome for one file: its touchpoints, or why it could not be scanned."""

    path: str
    touchpoints: tuple[Touchpoint, ...] = ()
    error: str | None = None
    sha256: str | None = None
    too_large: bool = False  # skipped: over the size limit (``error`` says so)

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path,
            "touchpoints": [t.to_dict() for t in self.touchpoints],
        }
        if self.error is not None:
            data["error"] = self.error
        return data


@dataclass(frozen=True, slots=True)
class ScanResult(JsonMixin):
    """All files scanned in one call, in a stable order."""

    files: tuple[FileScan, ...] = field(default_factory=tuple)

    @property
    def touchpoints(self) -> tuple[Touchpoint, ...]:
        return tuple(t for f in self.files for t in f.touchpoints)

    @property
    def errors(self) -> tuple[FileScan, ...]:
        return tuple(f for f in self.files if f.error is not None)

    def summary(self) -> dict[str, Any]:
        counts = Counter(t.kind for t in self.touchpoints)
        return {
            "files": len(self.files),
            "files_with_errors": len(self.errors),
            "touchpoints": sum(counts.values()),
            "by_kind": {k: counts.get(k, 0) for k in KINDS},
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": schemas.SCAN,
            "files": [f.to_dict() for f in self.files],
            "summary": self.summary(),
        }
