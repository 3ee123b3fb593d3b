"""A plan's vcrpy cassette, carried into the sandbox workdir and (when recording) back out.

The cassette path was checked to be inside the project and recording to be the person's
``--record`` before the run (:mod:`automock.plan.rights`); the parent still reads and
writes it without following a link at its name.

The program runs in a throw-away copy of its directory with most of the
filesystem read-only, so the cassette the plan names cannot be used in
place. Before each run :meth:`CassetteFile.stage` copies it (when it exists)
to ``<workdir>/cassettes/<name>``; the child makes that path absolute in its
own view of the workdir. After a recording run (``record_mode`` other than
``none``, chosen with ``automock run --record``) :meth:`CassetteFile.collect`
copies what vcrpy wrote back to the real path atomically (temp file in the
same directory + ``os.replace``), so a reader sees the old cassette or the
new one, never half. Nothing else leaves the workdir.

The copy back reads a file the sandboxed program could have tampered with:
it is opened without following symlinks (the ``cassettes`` directory too),
must be a regular file, and is capped at :data:`MAX_CASSETTE_BYTES`.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from automock._atomic import atomic_write_bytes, read_beneath
from automock.errors import PlanError
from automock.plan.model import Plan

__all__ = ["MAX_CASSETTE_BYTES", "STAGED_DIR", "CassetteFile", "write_bytes_atomic"]

STAGED_DIR = "cassettes"
MAX_CASSETTE_BYTES = 64 * 1024 * 1024


def write_bytes_atomic(path: Path, data: bytes) -> Path:
    """Write a cassette atomically (temp file + ``os.replace``) in its directory, never
    through a link or into a device at its name; errors name it."""
    return atomic_write_bytes(path, data, what="cassette", beneath=path.parent)


def _read_staged(work_root: Path, name: str) -> bytes | None:
    """The recorded cassette's bytes, or None when there is no regular file to take."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        dir_fd = os.open(work_root / STAGED_DIR, flags | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None
    try:
        fd = os.open(name, flags | getattr(os, "O_NONBLOCK", 0), dir_fd=dir_fd)
    except OSError:
        return None
    finally:
        os.close(dir_fd)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CASSETTE_BYTES:
            return None
        return handle.read(MAX_CASSETTE_BYTES + 1)[:MAX_CASSETTE_BYTES]


@dataclass(frozen=True, slots=True)
class CassetteFile:
    """The real cassette file of a run (``host``) and how the plan uses it."""

    host: Path
    record_mode: str

    @classmethod
    def for_plan(cls, plan: Plan, script: Path) -> CassetteFile | None:
        """The plan's cassette; a relative path is taken from the script's directory."""
        if plan.cassette is None:
            return None
        path = Path(plan.cassette.path)
        host = path if path.is_absolute() else script.resolve().parent / path
        return cls(host=host, record_mode=plan.cassette.record_mode)

    @property
    def recording(self) -> bool:
        return self.record_mode != "none"

    @property
    def staged_rel(self) -> str:
        """Where the cassette lives inside the workdir, relative to its root."""
        return f"{STAGED_DIR}/{self.host.name}"

    def stage(self, work_root: Path) -> str:
        """Copy the cassette (when it exists) into the workdir; return its relative path."""
        folder = work_root / STAGED_DIR
        folder.mkdir(exist_ok=True)
        try:  # never through a link (the caller checked the directories are the project's)
            data = read_beneath(
                self.host, self.host.parent, what="cassette", limit=MAX_CASSETTE_BYTES
            )
        except OSError as exc:
            raise PlanError(
                f"{self.host}: cannot read the cassette ({exc.strerror or exc}); "
                "fix its permissions or record it again with --record"
            ) from None
        if data is not None:
            (folder / self.host.name).write_bytes(data)
        return self.staged_rel

    def collect(self, work_root: Path) -> bool:
        """After a recording run: copy a new or changed cassette back; True if written."""
        if not self.recording:
            return False
        data = _read_staged(work_root, self.host.name)
        if data is None:
            return False
        with contextlib.suppress(OSError):
            if read_beneath(self.host, self.host.parent, what="cassette", limit=len(data)) == data:
                return False
        write_bytes_atomic(self.host, data)
        return True
