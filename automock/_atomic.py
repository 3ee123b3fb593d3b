"""Atomic file writes: a reader sees the old file or the new one, never half."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from automock.errors import PlanError

__all__ = ["atomic_write_text"]


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` via a temp file in the same directory + rename.

    On any failure (disk full, permissions) the temp file is removed and the
    old file, if any, is left untouched; a :class:`PlanError` names the path.
    """
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise PlanError(
            f"{target}: cannot create it in {target.parent} ({exc.strerror or exc}); "
            "choose a writable directory"
        ) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise PlanError(
            f"{target}: could not write ({exc.strerror or exc}); the previous file is unchanged"
        ) from None
    return target
