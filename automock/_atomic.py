"""Atomic file writes: a reader sees the old file or the new one, never half."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from automock.errors import PlanError

__all__ = ["atomic_write_bytes", "atomic_write_text"]


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, *, what: str = "file") -> Path:
    """Write ``data`` to ``path`` via a temp file in the same directory + rename.

    On any failure (disk full, permissions) the temp file is removed and the
    old file, if any, is left untouched; a :class:`PlanError` names the path
    and ``what`` it is (``"plan"``, ``"cassette"``, ...).
    """
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise PlanError(
            f"{target}: cannot create the {what} in {target.parent} ({exc.strerror or exc}); "
            "choose a writable directory"
        ) from None
    try:
        # mkstemp creates 0600; give the file the mode an ordinary write would
        # (the old file's mode, else 0666 less the umask) so plans stay shareable
        os.fchmod(fd, _mode_for(target))
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise PlanError(
            f"{target}: could not write the {what} ({exc.strerror or exc}); "
            "the previous file is unchanged"
        ) from None
    return target


def atomic_write_text(path: str | os.PathLike[str], text: str, *, what: str = "file") -> Path:
    """:func:`atomic_write_bytes` for UTF-8 text with ``\\n`` line endings."""
    return atomic_write_bytes(path, text.encode("utf-8"), what=what)


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
