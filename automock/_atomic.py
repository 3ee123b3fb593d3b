"""Atomic file writes: a reader sees the old file or the new one, never half."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from automock.errors import PlanError

__all__ = ["atomic_write_bytes", "atomic_write_text"]


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, *, what: str = "file") -> Path:
    """Write ``data`` to ``path`` via a temp file in the same directory + rename.

    A ``path`` that exists and is not a regular file (``/dev/null``, a FIFO) is written
    to directly: renaming over it would replace the device.

    On any failure (disk full, permissions) the temp file is removed and the
    old file, if any, is left untouched; a :class:`PlanError` names the path
    and ``what`` it is (``"plan"``, ``"cassette"``, ...).
    """
    target = Path(path)
    if _special(target):  # /dev/null, a FIFO, a terminal: write to it, never replace it
        return _write_through(target, data, what)
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


def _special(target: Path) -> bool:
    """Whether ``target`` exists and is not a regular file (a device, a FIFO, a socket).

    A rename over it would replace it: ``--jsonl /dev/null`` run as root once turned the
    host's ``/dev/null`` into a regular file that everyone's discarded output then filled.
    """
    try:
        return not stat.S_ISREG(target.stat().st_mode)
    except OSError:  # missing (or unreadable): the ordinary path reports it
        return False


def _write_through(target: Path, data: bytes, what: str) -> Path:
    try:
        with open(target, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise PlanError(
            f"{target}: could not write the {what} ({exc.strerror or exc}); "
            "choose a regular file or a writable device"
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
