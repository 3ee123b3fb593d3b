"""Atomic file writes: a reader sees the old file or the new one, never half.

With ``beneath`` (a directory: the project the path was named by), the write is also
contained: every directory from ``beneath`` down to the file is opened with
``O_NOFOLLOW | O_DIRECTORY`` (a missing one is made there), the temp file is created and
renamed inside that directory's fd, and the file itself must be a regular file or absent.
A symbolic link on the way (``fixtures -> /elsewhere``), a device or FIFO at the file's
name, or a path that is not under ``beneath`` is refused with one line naming it: automock
(often root) never creates or writes a file outside the project on the project's word.
:func:`read_beneath` reads the same way.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from automock.errors import PlanError

__all__ = ["atomic_write_bytes", "atomic_write_text", "read_beneath"]

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def atomic_write_bytes(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    what: str = "file",
    beneath: str | os.PathLike[str] | None = None,
) -> Path:
    """Write ``data`` to ``path`` via a temp file in the same directory + rename.

    A ``path`` that exists and is not a regular file (``/dev/null``, a FIFO) is written
    to directly: renaming over it would replace the device.

    On any failure (disk full, permissions) the temp file is removed and the
    old file, if any, is left untouched; a :class:`PlanError` names the path
    and ``what`` it is (``"plan"``, ``"cassette"``, ...). ``beneath``: see the module docstring.
    """
    target = Path(path)
    if beneath is not None:
        return _write_beneath(target, data, what, os.fspath(beneath))
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


def atomic_write_text(
    path: str | os.PathLike[str],
    text: str,
    *,
    what: str = "file",
    beneath: str | os.PathLike[str] | None = None,
) -> Path:
    """:func:`atomic_write_bytes` for UTF-8 text with ``\\n`` line endings."""
    return atomic_write_bytes(path, text.encode("utf-8"), what=what, beneath=beneath)


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        return _default_mode()


def _default_mode() -> int:
    """0666 less the umask: the mode an ordinary new file gets."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _refused(target: Path, what: str, problem: str) -> PlanError:
    return PlanError(
        f"{target}: {problem}; automock does not follow links or write special files "
        f"the project ships (make it a plain directory or file, or choose another place "
        f"for the {what})"
    )


def _open_parent(target: Path, base: str, what: str, *, create: bool) -> tuple[int, str]:
    """An fd of ``target``'s directory reached from ``base`` without following any link,
    and the file's name in it."""
    rel = os.path.relpath(os.path.abspath(target), os.path.abspath(base))
    parts = rel.split(os.sep)
    if rel == os.curdir or parts[0] == os.pardir:
        raise _refused(target, what, f"is not inside {base}")
    fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    walked = Path(base)
    try:
        for part in parts[:-1]:
            walked /= part
            try:
                if create and not os.path.lexists(walked):
                    with contextlib.suppress(FileExistsError):
                        os.mkdir(part, 0o777, dir_fd=fd)
                step = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                problem = "is a symbolic link" if os.path.islink(walked) else exc.strerror
                raise _refused(target, what, f"{walked} {problem or exc}") from None
            os.close(fd)
            fd = step
    except BaseException:
        os.close(fd)
        raise
    return fd, parts[-1]


def _write_beneath(target: Path, data: bytes, what: str, base: str) -> Path:
    fd, name = _open_parent(target, base, what, create=True)
    tmp = f".{name}.{os.getpid()}.{id(data):x}.tmp"
    try:
        mode = _default_mode()
        with contextlib.suppress(FileNotFoundError):
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                kind = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a regular file"
                raise _refused(target, what, f"is {kind}")
            mode = info.st_mode & 0o7777
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            out = os.open(tmp, flags, 0o600, dir_fd=fd)
            with os.fdopen(out, "wb") as handle:
                os.fchmod(handle.fileno(), mode)
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, name, src_dir_fd=fd, dst_dir_fd=fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=fd)
            raise PlanError(
                f"{target}: could not write the {what} ({exc.strerror or exc}); "
                "the previous file is unchanged"
            ) from None
    finally:
        os.close(fd)
    return target


def read_beneath(
    path: str | os.PathLike[str], beneath: str | os.PathLike[str], *, what: str, limit: int
) -> bytes | None:
    """The bytes of the regular file ``path`` (at most ``limit``), reached from ``beneath``
    without following a link (a :class:`PlanError` names one); None when it is missing."""
    target = Path(path)
    try:
        fd, name = _open_parent(target, os.fspath(beneath), what, create=False)
    except PlanError:
        if not os.path.lexists(target.parent):
            return None
        raise
    try:
        try:
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        if not stat.S_ISREG(info.st_mode):
            kind = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a regular file"
            raise _refused(target, what, f"is {kind}")
        file_fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
        with os.fdopen(file_fd, "rb") as handle:
            return handle.read(limit + 1)[:limit]
    finally:
        os.close(fd)
