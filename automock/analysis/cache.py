"""Optional on-disk cache of scan results, keyed by file content hash.

Entries live under ``<root>/scan/<version>/<sha256>.json`` where ``version``
changes whenever automock's version or the analysis package's source (the
catalog included) changes, so a stale cache is never read. Only successful scans are stored, without their path (the same content
at another path reuses the entry). A damaged entry is ignored and rewritten.

A relative root (``.automock-cache``) belongs to the project in the current directory,
which is untrusted: entries are read and written from that directory without following
any link (:func:`automock._atomic.read_beneath`), so ``.automock-cache -> /elsewhere``
makes the cache unused, never a way to create files elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import os
from functools import cache
from pathlib import Path

from automock._atomic import atomic_write_bytes, read_beneath
from automock._sha256 import sha256
from automock.analysis.model import Touchpoint
from automock.errors import AutomockError

__all__ = ["DiskCache"]


@cache
def _version_key() -> str:
    """automock's version and the source of the analysis package (catalog included).

    Any change to what the scanner knows or how it walks starts a new cache, and
    a cache hit imports neither the catalog nor libcst.
    """
    from automock import __version__

    digest = sha256(__version__.encode())
    for source in sorted(Path(__file__).resolve().parent.glob("*.py")):
        digest.update(f"\0{source.name}\0".encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def _well_typed(t: Touchpoint) -> bool:
    ints = (t.line, t.col, t.end_line, t.end_col)
    strs = (t.kind, t.api, t.symbol, t.reason)
    return all(type(v) is int for v in ints) and all(isinstance(v, str) for v in strs)


class DiskCache:
    """Touchpoints by content hash; safe to share between worker processes."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.directory = Path(root) / "scan" / _version_key()
        # a relative root is the project's: reached from here without following links
        self.beneath = None if Path(root).is_absolute() else os.getcwd()

    def _entry(self, digest: str) -> Path:
        return self.directory / f"{digest}.json"

    def get(self, digest: str, path: str) -> tuple[Touchpoint, ...] | None:
        try:
            rows = json.loads(self._read(self._entry(digest)) or b"")
            found = tuple(Touchpoint.from_dict({**row, "path": path}) for row in rows)
        except (OSError, ValueError, KeyError, TypeError, AutomockError):
            return None
        return found if all(_well_typed(t) for t in found) else None  # damaged: rescan

    def put(self, digest: str, touchpoints: tuple[Touchpoint, ...]) -> None:
        rows = [{k: v for k, v in t.to_dict().items() if k != "path"} for t in touchpoints]
        data = json.dumps(rows).encode("utf-8")
        with contextlib.suppress(OSError, AutomockError):  # unwritten: just a slower scan
            atomic_write_bytes(self._entry(digest), data, what="scan cache", beneath=self.beneath)

    def _read(self, entry: Path) -> bytes | None:
        if self.beneath is None:
            return entry.read_bytes()
        return read_beneath(entry, self.beneath, what="scan cache", limit=64 * 1024 * 1024)
