"""The ``landlock`` layer: a filesystem read allow-list enforced by the kernel (Landlock LSM).

The mount namespace makes the host read-only, not invisible. Landlock lets this process
(and everything it starts) open only what a rule allows, whatever the file's mode:

- read and execute: the interpreter, its standard library and ``sys.path`` (the
  ``needed`` paths the isolation computes), the paths the user named (``--read``),
  and the system's shared libraries and programs (``/usr``, ``/lib*``, ``/bin``,
  ``/sbin``; package-managed, what the dynamic loader and a subprocess need), the
  loader cache and the time zone;
- read: the process's own ``/proc`` (private to its PID namespace) and the CPU topology;
- read and write: the private ``/tmp`` (the workdir is in it), ``/dev/shm``, and the
  character devices a program expects (``/dev/null``, ``/dev/zero``, ``/dev/urandom`` ...).

Everything else (``/home``, ``/root``, ``/run``, ``/var``, ``/srv``, ``/etc``, other
projects) fails with ``EACCES``. :func:`restrict` is the last step of the isolation,
after ``no_new_privs``; the domain is inherited by every descendant and cannot be left.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from automock.sandbox.kernel.layers import LayerStatus

__all__ = ["SYSTEM_READ", "abi", "prepare", "prepared_fds", "readable_paths", "release", "restrict"]

_CREATE, _ADD_RULE, _RESTRICT = 444, 445, 446  # the same on every architecture (asm-generic)
_VERSION = 1  # LANDLOCK_CREATE_RULESET_VERSION
_PATH_BENEATH = 1
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1, 2, 4, 8
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FILE_ONLY = _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE | _IOCTL_DEV
_READ = _READ_FILE | _READ_DIR
SYSTEM_READ = (
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/bin",
    "/sbin",
    "/etc/ld.so.cache",
    "/etc/localtime",
)
_PROC_READ = ("/proc", "/sys/devices/system/cpu")
_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
_WRITABLE = ("/tmp", "/dev/shm")
_BENEATH_WRITABLE = tuple(f"{top}/" for top in _WRITABLE)
_MOUNTED = (*_WRITABLE, "/proc")  # mounted afresh by each batch child: see _Prepared


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def abi() -> int:
    """The kernel's Landlock ABI version; 0 (or less) when unavailable."""
    libc = _libc()
    version = int(libc.syscall(ctypes.c_long(_CREATE), None, ctypes.c_size_t(0), _VERSION))
    return version if version > 0 else -ctypes.get_errno()


def _handled(version: int) -> int:
    rights = (1 << 13) - 1  # ABI 1: execute .. make_sym
    if version >= 2:
        rights |= _REFER
    if version >= 3:
        rights |= _TRUNCATE
    if version >= 5:
        rights |= _IOCTL_DEV
    return rights


def _add(
    syscall: Callable[..., int], ruleset: int, path: str, access: int, *, directory: bool = False
) -> bool:
    """Add the rule for ``path``; False if it is absent here (nothing to allow).
    ``directory``: ``path`` is one (``/tmp``, a child's own mount): opened as such, no stat."""
    flags = os.O_PATH | os.O_CLOEXEC | (os.O_DIRECTORY if directory else 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False
    try:
        if not directory and not os.path.isdir(path):
            access &= _FILE_ONLY
        rule = _PathBeneath(access, fd)
        if syscall(ctypes.c_long(_ADD_RULE), ruleset, _PATH_BENEATH, ctypes.byref(rule), 0):
            raise OSError(ctypes.get_errno(), f"landlock_add_rule({path})")
    finally:
        os.close(fd)
    return True


def _rules(readable: Iterable[str], workdir: str | None, handled: int) -> list[tuple[str, int]]:
    read_exec = _READ | _EXECUTE
    rules = [(p, read_exec) for p in (*SYSTEM_READ, *readable)]
    rules += [(p, _READ) for p in _PROC_READ]
    rules += [(p, _READ_FILE | _WRITE_FILE | _TRUNCATE | _IOCTL_DEV) for p in _DEVICES]
    rules += [(p, handled) for p in (*_WRITABLE, *([workdir] if workdir else []))]
    return [(path, access & handled) for path, access in rules]


def _status(version: int, allowed: Iterable[str], readable: Iterable[str]) -> str:
    extra = sorted(set(readable) & set(allowed))
    return (
        f"Landlock ABI {version}: reads only system libraries, /proc, /tmp (the workdir) and "
        f"/dev/shm, and {', '.join(extra) or 'nothing else'}"
    )


def restrict(readable: Sequence[str], workdir: str | None) -> LayerStatus:
    """Allow only the rules above (``readable``: read+execute; ``workdir``: read-write) to
    this process and its descendants. Call after ``PR_SET_NO_NEW_PRIVS``.

    After :func:`prepare` for the same ``readable`` (and a ``workdir`` under ``/tmp``, whose
    rule covers it), the rules on fds opened by the preparing process are reused."""
    ready = _prepared.pop(tuple(readable), None)
    release()  # any other: never left open for the program
    if ready is not None:
        if _covered(workdir):
            return ready.restrict()
        ready.close()
    version = abi()
    if version <= 0:
        why = os.strerror(-version) if version < 0 else "no ABI"
        return LayerStatus("landlock", False, f"Landlock unavailable ({why})")
    libc = _libc()
    handled = _handled(version)
    allowed: list[str] = []

    def add(ruleset: int) -> None:
        rules = _rules(readable, workdir, handled)
        allowed.extend(path for path, access in rules if _add(libc.syscall, ruleset, path, access))

    refused = _enforce(libc.syscall, ctypes.c_uint64(handled), add)
    if refused:
        return LayerStatus("landlock", False, refused)
    return LayerStatus("landlock", True, _status(version, allowed, readable))


def _enforce(syscall: Callable[..., int], attr: Any, add: Callable[[int], None]) -> str:
    """Create a ruleset handling ``attr`` (a ``c_uint64``: ``struct landlock_ruleset_attr``
    with only ``handled_access_fs``), let ``add`` add its rules, restrict this process to
    it; ``""``, or why Landlock refused."""
    ruleset = int(syscall(ctypes.c_long(_CREATE), ctypes.byref(attr), ctypes.c_size_t(8), 0))
    if ruleset < 0:
        return f"landlock_create_ruleset refused ({ruleset})"
    try:
        add(ruleset)
        if syscall(ctypes.c_long(_RESTRICT), ruleset, 0):
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    except OSError as exc:
        return f"Landlock refused ({exc})"
    finally:
        os.close(ruleset)
    return ""


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What a forked child needs to restrict itself: all but the rules on its own mounts.

    Landlock rules name inodes, and a rule on a directory that another mount hides does
    not apply beneath that mount (the kernel's walk skips hidden mount points): the rules
    on ``/tmp``, ``/dev/shm`` and ``/proc``, which each child mounts afresh, are added by
    the child (``mounted``). Every other rule's path is opened once (``fds``), by the
    process that forks the children, and its ``struct landlock_path_beneath`` built.
    """

    version: int
    attr: Any  # ctypes.c_uint64: the handled rights
    fds: tuple[int, ...]
    rules: tuple[Any, ...]  # _PathBeneath over fds
    mounted: tuple[tuple[str, int], ...]
    syscall: Callable[..., int]  # libc's syscall(), restype long
    detail: str
    contiguous: bool = False  # fds are n, n+1, ...: closed with one call

    def restrict(self) -> LayerStatus:
        call = self.syscall

        def add(ruleset: int) -> None:
            for rule in self.rules:
                if call(ctypes.c_long(_ADD_RULE), ruleset, _PATH_BENEATH, ctypes.byref(rule), 0):
                    raise OSError(ctypes.get_errno(), "landlock_add_rule")
            for path, access in self.mounted:
                _add(call, ruleset, path, access, directory=True)

        try:
            refused = _enforce(call, self.attr, add)
        finally:
            self.close()
        if refused:
            return LayerStatus("landlock", False, refused)
        return LayerStatus("landlock", True, self.detail)

    def close(self) -> None:
        if self.contiguous:
            os.closerange(self.fds[0], self.fds[-1] + 1)  # one close_range() for all
            return
        for fd in self.fds:
            os.close(fd)


_prepared: dict[tuple[str, ...], _Prepared] = {}


def prepare(readable: Sequence[str], low: int = 0) -> None:
    """In a process that forks sandbox children: open, once, the paths of the rules that
    are the same for every child (at consecutive fds above ``low`` and above every fd open
    now; the children keep them open until :func:`restrict` uses and closes them:
    :func:`prepared_fds`). Its mount namespace must be the children's before they mount
    their own ``/tmp``, ``/dev/shm`` and ``/proc``."""
    version = abi()
    if version <= 0 or _prepared:
        return
    handled = _handled(version)
    opened: list[tuple[str, int, int]] = []  # path, access, a temporary fd
    mounted: list[tuple[str, int]] = []
    for path, access in _rules(readable, None, handled):
        if path in _MOUNTED:
            mounted.append((path, access))
            continue
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue  # absent here: nothing to allow
        opened.append((path, access if os.path.isdir(path) else access & _FILE_ONLY, fd))
    base = max([low - 1, *map(int, os.listdir("/proc/self/fd"))]) + 1
    fds = []
    for at, (_, _, fd) in enumerate(opened, base):  # consecutive: one close_range() for all
        fds.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, at))
        os.close(fd)
    _prepared[tuple(readable)] = _Prepared(
        version,
        ctypes.c_uint64(handled),
        tuple(fds),
        tuple(_PathBeneath(access, fd) for (_, access, _), fd in zip(opened, fds, strict=True)),
        tuple(mounted),
        _libc().syscall,
        _status(version, [path for path, _, _ in opened], readable),
        fds == list(range(base, base + len(fds))),
    )


def release() -> None:
    """Close what :func:`prepare` left open and :func:`restrict` did not use (none after it)."""
    for ready in _prepared.values():
        ready.close()
    _prepared.clear()


def prepared_fds() -> tuple[int, ...]:
    """The fds :func:`prepare` left open in this process (sorted)."""
    return tuple(sorted(fd for ready in _prepared.values() for fd in ready.fds))


def _covered(workdir: str | None) -> bool:
    """Is ``workdir`` (absolute, normalized: a cwd) beneath a writable rule's directory?"""
    return workdir is None or workdir in _WRITABLE or workdir.startswith(_BENEATH_WRITABLE)


def readable_paths(
    paths: Iterable[str | os.PathLike[str]], flag: str = "--read"
) -> tuple[str, ...]:
    """The user's extra readable paths, absolute and resolved; a missing one is refused."""
    from automock.errors import InputError

    found = []
    for path in paths:
        text = os.fspath(path)
        if not text or "\0" in text:
            raise InputError(f"{flag} {text!r}: expected a path")
        real = os.path.realpath(text)
        if not os.path.exists(real):
            raise InputError(f"{flag} {text}: no such file or directory")
        found.append(real)
    return tuple(found)
