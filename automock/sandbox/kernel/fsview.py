"""The filesystem layer: a private mount namespace with a read-only view of the host.

Every existing mount is re-mounted read-only, ``/tmp`` and ``/dev/shm``
become fresh private tmpfs, and the workdir is bound read-write at
:data:`VIRTUAL_ROOT`. Directories the unprivileged uid cannot traverse
(``/root`` holding the interpreter) are replaced by a tmpfs that exposes
only what is needed. Used by :func:`automock.sandbox.kernel.isolation.enter_isolation`.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterable, Sequence

from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.mountinfo import unescape
from automock.sandbox.kernel.syscalls import (
    CLONE_NEWNS,
    KEPT_FLAGS,
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    MS_REMOUNT,
    SKIP_MOUNTS,
    mount,
    reason,
    unshare,
)
from automock.sandbox.kernel.workdir import RUN_PREFIX

__all__ = ["VIRTUAL_ROOT", "filesystem_layer", "hide", "traversable"]

VIRTUAL_ROOT = "/tmp/automock"  # where the workdir appears inside the mount namespace


_RUN_WORKDIRS = f"/tmp/{RUN_PREFIX}"


def _mount_points() -> list[tuple[str, set[str]]]:
    """The mounts to make read-only: not other runs' workdirs (each a tmpfs of its own at
    ``/tmp/automock-run-*``, which the private ``/tmp`` covers): how many there are must not
    change what this process allocates, so address-stable runs stay stable beside others."""
    points = []
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            at = 0
            for _ in range(4):  # the 5th field: the mount point
                at = line.index(" ", at) + 1
            if line.startswith(_RUN_WORKDIRS, at):  # under the private /tmp: unreachable
                continue
            fields = line.split()
            target = unescape(fields[4])
            points.append((target, set(fields[5].split(","))))
    return points


def traversable(path: str, uid: int) -> bool:
    """Can ``uid`` (no groups) reach ``path`` through every ancestor?"""
    probe = os.path.join(path, "x") if os.path.isdir(path) else path
    return _blocked_ancestor(probe, uid) is None


def _blocked_ancestor(path: str, uid: int) -> str | None:
    current = "/"
    for part in [p for p in os.path.abspath(path).split(os.sep) if p][:-1]:
        current = os.path.join(current, part)
        try:
            info = os.stat(current)
        except OSError:
            return None
        bit = stat.S_IXUSR if info.st_uid == uid else stat.S_IXOTH
        if not info.st_mode & bit:
            return current
    return None


def _expose(needed: Iterable[str], uid: int) -> list[str]:
    """Replace untraversable ancestors of ``needed`` by a tmpfs exposing only them."""
    exposed: list[str] = []
    for _ in range(4):  # nested blocked directories: a few rounds at most
        children: dict[str, set[str]] = {}
        for path in needed:
            blocked = (
                _blocked_ancestor(os.path.join(path, "x"), uid) if os.path.isdir(path) else None
            )
            blocked = blocked or _blocked_ancestor(path, uid)
            if blocked is not None:
                rest = os.path.relpath(path, blocked).split(os.sep)[0]
                if rest in (os.curdir, os.pardir):  # the path itself is closed: no mount opens it
                    continue
                children.setdefault(blocked, set()).add(rest)
        if not children:
            break
        for blocked, names in sorted(children.items(), key=lambda kv: len(kv[0])):
            fds = {name: os.open(os.path.join(blocked, name), os.O_PATH) for name in sorted(names)}
            try:
                mount("tmpfs", blocked, "tmpfs", MS_NOSUID | MS_NODEV, "mode=755,size=64k")
                for name, fd in fds.items():
                    target = os.path.join(blocked, name)
                    if stat.S_ISDIR(os.fstat(fd).st_mode):
                        os.mkdir(target)
                    else:
                        open(target, "w").close()  # an empty file as mount point
                    mount(f"/proc/self/fd/{fd}", target, None, MS_BIND | MS_REC)
            finally:
                for fd in fds.values():
                    os.close(fd)
            exposed.append(blocked)
    return exposed


PRIVATE_TMP = ("/tmp", "/dev/shm")


def open_under(paths: Iterable[str], roots: Sequence[str]) -> list[tuple[str, int]]:
    """O_PATH fds of the outermost ``paths`` strictly inside ``roots`` (before they are hidden)."""
    inside = sorted({p for p in paths if any(p.startswith(root + "/") for root in roots)})
    outermost = [p for p in inside if not any(p.startswith(q + "/") for q in inside if q != p)]
    return [(p, os.open(p, os.O_PATH)) for p in outermost]


def bind_read_only(opened: list[tuple[str, int]]) -> None:
    """Bind each opened path back at its own place in the fresh tmpfs, read-only."""
    for path, fd in opened:
        try:
            if stat.S_ISDIR(os.fstat(fd).st_mode):
                os.makedirs(path, mode=0o755, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
                open(path, "w").close()  # an empty file as mount point
            mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
            flags = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV
            with contextlib.suppress(OSError):  # already read-only when inherited
                mount(None, path, None, flags)
        finally:
            os.close(fd)


_COVER_FLAGS = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC


def hide(paths: Sequence[str]) -> list[str]:
    """Cover each of ``paths`` this mount namespace shows with an empty read-only one: a
    directory with an empty tmpfs, a file with an empty file bound over it. Call it once
    ``/tmp`` is private (the empty file is made there, then unlinked). ``paths`` are the
    person's, resolved by the trusted parent (no symlink is followed here on anyone's
    word). Returns the paths covered."""
    covered: list[str] = []
    empty = os.path.join("/tmp", f".automock-empty-{os.getpid()}")
    made = False
    try:
        for path in paths:
            try:
                info = os.stat(path)
            except OSError:  # not in this view: nothing to hide
                continue
            if stat.S_ISDIR(info.st_mode):
                mount("tmpfs", path, "tmpfs", _COVER_FLAGS, "mode=555,size=4k,nr_inodes=1")
            else:
                if not made:
                    os.close(os.open(empty, os.O_CREAT | os.O_EXCL | os.O_RDONLY, 0o444))
                    made = True
                mount(empty, path, None, MS_BIND)
                mount(None, path, None, MS_BIND | MS_REMOUNT | _COVER_FLAGS)
            covered.append(path)
    finally:
        if made:
            os.unlink(empty)  # the covers keep the empty file; /tmp does not show it
    return covered


def filesystem_layer(
    workdir: str | None, uid: int | None, readable: Sequence[str], inputs: Sequence[str] = ()
) -> LayerStatus:
    """The filesystem layer (see the module doc); ``inputs``: paths to cover (:func:`hide`)."""
    if not sys.platform.startswith("linux"):
        return LayerStatus(
            "filesystem", False, f"mount namespaces need Linux (this is {sys.platform})"
        )
    if workdir is None:
        return LayerStatus("filesystem", False, "no workdir given")
    try:
        unshare(CLONE_NEWNS)
        mount(None, "/", None, MS_REC | MS_PRIVATE)
    except OSError as exc:
        os.chdir(workdir)
        return LayerStatus(
            "filesystem",
            False,
            f"mount namespace refused ({reason(exc)}); only cwd/HOME/TMPDIR point into {workdir}",
        )
    work_fd = os.open(workdir, os.O_PATH | os.O_DIRECTORY)  # opened inside the new namespace
    try:
        exposed = _expose(readable, uid) if uid is not None else []
        failed = []
        for target, opts in _mount_points():
            if target in SKIP_MOUNTS or "ro" in opts:
                continue
            keep = sum(flag for name, flag in KEPT_FLAGS if name in opts)
            try:
                mount(None, target, None, MS_BIND | MS_REMOUNT | MS_RDONLY | keep)
            except OSError:
                failed.append(target)
        # the interpreter, a venv or the project may live under /tmp: keep them visible
        hidden = open_under(readable, PRIVATE_TMP)
        mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777,size=64m")
        if os.path.isdir("/dev/shm"):
            mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777,size=64m")
        bind_read_only(hidden)
        covered = hide(inputs)
        os.makedirs(VIRTUAL_ROOT, mode=0o755)
        mount(f"/proc/self/fd/{work_fd}", VIRTUAL_ROOT, None, MS_BIND | MS_REC)
        mount(None, VIRTUAL_ROOT, None, MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV)
        os.chdir(VIRTUAL_ROOT)
    finally:
        os.close(work_fd)
    detail = f"every mount read-only; private tmpfs on /tmp and /dev/shm; workdir writable at {VIRTUAL_ROOT}"
    if covered:
        detail += f"; {len(covered)} input or test-data path(s) covered by empty ones"
    if exposed:
        detail += f"; {', '.join(exposed)} replaced by a tmpfs exposing only the interpreter"
    if failed:
        detail += f"; could not make read-only: {', '.join(failed)}"
    return LayerStatus("filesystem", True, detail)
