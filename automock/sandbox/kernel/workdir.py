"""A throw-away working directory per run: a bounded copy of the target's directory.

Layout (``root`` is what the program sees as :data:`~automock.sandbox.kernel.isolation.VIRTUAL_ROOT`
when the mount namespace is active)::

    root/src/    copy of the target's directory (the program's cwd)
    root/home/   $HOME
    root/tmp/    $TMPDIR

The user's files are only ever read. Large trees are not copied whole: when
the directory exceeds the budget only the target file and small top-level
files are copied, and :attr:`Workdir.note` says so.

As root on Linux, ``root`` is a size-limited tmpfs of its own (:data:`BOUND`: the copy's
budget plus :data:`ROOM` to write), mounted before anything is copied or any child
started, so a run cannot fill the host's temp filesystem through its workdir: a write
past the bound fails with ``ENOSPC`` (:meth:`Workdir.full` tells the parent afterwards).
The parent copies in and out through the host path as before (a recorded cassette
included); :meth:`Workdir.cleanup` and the sweep of a killed run's workdir unmount it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "BOUND",
    "Workdir",
    "empty_workdir",
    "make_workdir",
    "remove_tree",
    "sweep_stale_workdirs",
]

IGNORED = (
    ".git",
    ".hg",
    "__pycache__",
    "*.pyc",
    ".venv",
    "venv",
    "node_modules",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".tox",
    ".automock-cache",
)
MAX_FILES = 2000
MAX_BYTES = 64 * 1024 * 1024
MAX_TOP_LEVEL_FILE = 1024 * 1024
ROOM = 64 * 1024 * 1024  # what a run may write in its workdir on top of the copy
BOUND = MAX_BYTES + ROOM  # the size of a bounded workdir's tmpfs
_INODES = 65536  # files and directories a bounded workdir may hold


@dataclass(frozen=True, slots=True)
class Workdir:
    """A temp workdir; :meth:`cleanup` removes it (also usable as a context manager)."""

    root: Path
    script_rel: str
    note: str
    bounded: bool = False  # ``root`` is a tmpfs of its own, :data:`BOUND` bytes

    @property
    def script(self) -> Path:
        return self.root / self.script_rel

    def full(self) -> bool:
        """Is the bounded workdir full (less than 1 MiB or no inode left)? False if unbounded."""
        if not self.bounded:
            return False
        try:
            info = os.statvfs(self.root)
        except OSError:
            return False
        return info.f_bavail * info.f_frsize < (1 << 20) or info.f_favail == 0

    def cleanup(self) -> None:
        remove_tree(self.root)

    def __enter__(self) -> Workdir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


def _tree_size(directory: Path) -> tuple[int, int]:
    files = size = 0
    ignore = shutil.ignore_patterns(*IGNORED)
    for current, dirs, names in os.walk(directory):
        skipped = ignore(current, dirs + names)
        dirs[:] = [d for d in dirs if d not in skipped]
        for name in names:
            if name in skipped:
                continue
            files += 1
            try:
                size += os.lstat(os.path.join(current, name)).st_size
            except OSError:
                continue
            if files > MAX_FILES or size > MAX_BYTES:
                return files, size
    return files, size


def _shareable(path: str) -> bool:
    """May the sandbox uid see a copy of ``path``? Only files, dirs and links (a FIFO or a
    socket cannot be copied). As root, only what any user could read: the copy is chowned to
    the sandbox uid, so a 0600 key would otherwise be handed over."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode) or stat.S_ISLNK(info.st_mode)):
        return False
    if os.geteuid() != 0:
        return True  # no uid drop: the child could read the original anyway
    if stat.S_ISLNK(info.st_mode):
        return True  # copied as a link; the target is judged by the kernel inside the sandbox
    need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(info.st_mode) else 0)
    return info.st_mode & need == need


def _ignore(root: Path) -> Callable[[str, list[str]], set[str]]:
    """IGNORED names, the workdir itself (a script in $TMPDIR), and private entries."""
    base = shutil.ignore_patterns(*IGNORED)

    def ignore(current: str, names: list[str]) -> set[str]:
        skipped = set(base(current, names))
        for name in names:
            path = os.path.join(current, name)
            if os.path.realpath(path) == str(root) or not _shareable(path):
                skipped.add(name)
        return skipped

    return ignore


RUN_PREFIX = "automock-run-"


def _bound(root: Path) -> bool:
    """Mount a tmpfs of :data:`BOUND` bytes on the (empty) ``root``: as root on Linux only."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return False
    from automock.sandbox.kernel.syscalls import MS_NODEV, MS_NOSUID, mount

    options = f"size={BOUND},nr_inodes={_INODES},mode=0755"
    try:
        mount("tmpfs", str(root), "tmpfs", MS_NOSUID | MS_NODEV, options)
    except OSError:
        return False
    return True


def remove_tree(path: str | os.PathLike[str]) -> None:
    """Remove a workdir: its contents, its own tmpfs if it has one, the directory."""
    shutil.rmtree(path, ignore_errors=True)  # a mount point itself stays (EBUSY)
    if os.path.ismount(path):
        from automock.sandbox.kernel.syscalls import unmount

        with contextlib.suppress(OSError):
            unmount(os.fspath(path))
        shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale(prefix: str, base: str | None = None) -> list[Path]:
    """Remove ``<prefix><pid>-*`` temp dirs whose owner process no longer exists.

    Shared by ``automock run`` workdirs and batch pool directories, so a run
    or pool killed with SIGKILL leaves nothing behind after the next start.
    """
    stale = re.compile(rf"^{re.escape(prefix)}(\d+)-")
    removed: list[Path] = []
    root = Path(base or tempfile.gettempdir())
    try:
        entries = list(root.iterdir())
    except OSError:
        return removed
    for entry in entries:
        match = stale.match(entry.name)
        if match and not _alive(int(match.group(1))) and entry.is_dir() and not entry.is_symlink():
            remove_tree(entry)
            removed.append(entry)
    return removed


def sweep_stale_workdirs(base: str | None = None) -> list[Path]:
    """Remove workdirs left by an ``automock run`` that was killed (its pid is in the name)."""
    return sweep_stale(RUN_PREFIX, base)


def empty_workdir() -> Workdir:
    """A fresh workdir with empty ``src``, ``home`` and ``tmp``, to fill with :func:`make_workdir`
    (``into=``) once the file to run is known (a spare sandbox child starts in it ahead)."""
    sweep_stale_workdirs()
    # a fixed-length name (pid padded): the child's environment has the same size every run
    root = Path(tempfile.mkdtemp(prefix=f"{RUN_PREFIX}{os.getpid():07d}-")).resolve()
    os.chmod(root, 0o755)
    bounded = _bound(root)
    for sub in ("home", "tmp", "src"):
        (root / sub).mkdir()
    return Workdir(root=root, script_rel="src", note="empty", bounded=bounded)


def make_workdir(
    script: str | os.PathLike[str], *, copy_tree: bool = True, into: Workdir | None = None
) -> Workdir:
    """Copy ``script``'s directory (bounded) into a fresh temp dir (or the empty ``into``)."""
    source = Path(script).resolve()
    empty = into or empty_workdir()
    root = empty.root
    dest = root / "src"
    files, size = _tree_size(source.parent) if copy_tree else (MAX_FILES + 1, 0)
    try:
        if files <= MAX_FILES and size <= MAX_BYTES:
            shutil.copytree(
                source.parent, dest, symlinks=True, ignore=_ignore(root), dirs_exist_ok=True
            )
            if not (dest / source.name).exists():  # the script itself is always copied
                shutil.copy2(source, dest / source.name)
            note = f"copy of {source.parent} ({files} files)"
        else:
            for entry in source.parent.iterdir():
                if (
                    entry.is_file()
                    and not entry.is_symlink()
                    and _shareable(str(entry))
                    and entry.stat().st_size <= MAX_TOP_LEVEL_FILE
                ):
                    shutil.copy2(entry, dest / entry.name)
            shutil.copy2(source, dest / source.name)
            note = f"copy of the small top-level files of {source.parent} (the tree is too large to copy)"
    except BaseException:
        remove_tree(root)
        raise
    if empty.bounded:
        note += f"; a {BOUND >> 20} MiB tmpfs of its own"
    return Workdir(root=root, script_rel=f"src/{source.name}", note=note, bounded=empty.bounded)
