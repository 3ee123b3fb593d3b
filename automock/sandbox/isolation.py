"""Kernel-level isolation entered by a freshly forked (or exec'd) sandbox child.

:func:`enter_isolation` is a plain function with no parent-side state, so
both ``automock run`` (a fresh interpreter) and the batch pool (a fork of a
warm parent) call it as the first thing in the child. Each layer is tried
independently and reported as a :class:`LayerStatus`; a layer the kernel
refuses (not Linux, not root, ``EPERM``) is reported inactive with the
reason, never claimed.

Layers, in the order they are entered:

* ``session``: a new session and process group, so a timeout kills the group.
* ``network``: a new network namespace (``CLONE_NEWNET``): no interface is up,
  not even loopback, so ctypes or raw sockets reach nothing.
* ``filesystem``: a private mount namespace in which every existing mount is
  read-only, ``/tmp`` and ``/dev/shm`` are fresh private tmpfs, and the
  workdir is bound read-write at :data:`VIRTUAL_ROOT`; directories the
  unprivileged uid cannot traverse (``/root``) are replaced by a tmpfs that
  exposes only the interpreter and ``sys.path`` entries.
* ``pid``: a new PID namespace whose init is the program's process; when it
  exits the kernel kills every descendant, including daemons that ``setsid``.
* ``rlimits``: CPU, address space, file size, open files, processes.
* ``uid``: when root, drop to an unprivileged uid (so ``RLIMIT_NPROC`` holds)
  with ``no_new_privs`` set.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import signal
import stat
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from automock._serialize import JsonMixin

__all__ = [
    "SANDBOX_UID",
    "VIRTUAL_ROOT",
    "LayerStatus",
    "Limits",
    "enter_isolation",
]

SANDBOX_UID = 65534  # nobody
VIRTUAL_ROOT = "/tmp/automock"  # where the workdir appears inside the mount namespace

_CLONE_NEWNS = 0x00020000
_CLONE_NEWPID = 0x20000000
_CLONE_NEWNET = 0x40000000
_MS_RDONLY = 1
_MS_NOSUID = 2
_MS_NODEV = 4
_MS_NOEXEC = 8
_MS_REMOUNT = 32
_MS_BIND = 4096
_MS_REC = 16384
_MS_PRIVATE = 1 << 18
_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38
_SKIP_MOUNTS = ("/proc", "/sys", "/dev", "/dev/pts")


@dataclass(frozen=True, slots=True)
class Limits(JsonMixin):
    """Resource limits for one sandboxed program (``None`` = leave as inherited)."""

    cpu_seconds: int | None = 31
    memory_mb: int | None = 1024
    file_size_mb: int | None = 64
    open_files: int | None = 256
    processes: int | None = 64
    output_bytes: int = 1 << 20


@dataclass(frozen=True, slots=True)
class LayerStatus(JsonMixin):
    """One isolation layer: whether it is in force, and what it does or why not."""

    name: str
    active: bool
    detail: str


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _unshare(flags: int) -> None:
    unshare = getattr(os, "unshare", None)
    if unshare is not None:  # Python 3.12+
        unshare(flags)
        return
    if _libc().unshare(ctypes.c_int(flags)) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


def _mount(
    source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None
) -> None:
    def enc(value: str | None) -> bytes | None:
        return None if value is None else os.fsencode(value)

    result = _libc().mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data))
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"mount {target}: {os.strerror(code)}")


def _prctl(option: int, arg: int) -> None:
    _libc().prctl(option, ctypes.c_ulong(arg), 0, 0, 0)


def _reason(exc: OSError) -> str:
    return f"{errno.errorcode.get(exc.errno or 0, 'error')}: {exc.strerror or exc}"


def _new_session() -> LayerStatus:
    try:
        os.setsid()
    except OSError:
        if os.getsid(0) != os.getpid():
            return LayerStatus("session", False, "could not start a new session")
    return LayerStatus("session", True, "own session and process group (killed as a group)")


def _network(allow: bool) -> LayerStatus:
    if allow:
        return LayerStatus("network", False, "real network allowed by --allow-network")
    if not sys.platform.startswith("linux"):
        return LayerStatus(
            "network", False, f"network namespaces need Linux (this is {sys.platform})"
        )
    try:
        _unshare(_CLONE_NEWNET)
    except OSError as exc:
        return LayerStatus("network", False, f"unshare(CLONE_NEWNET) refused ({_reason(exc)})")
    return LayerStatus(
        "network", True, "new network namespace with no interface up (not even loopback)"
    )


# -- filesystem ---------------------------------------------------------------------


def _mount_points() -> list[tuple[str, set[str]]]:
    points = []
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            target = fields[4].encode().decode("unicode_escape")
            points.append((target, set(fields[5].split(","))))
    return points


def _traversable(path: str, uid: int) -> bool:
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
                children.setdefault(blocked, set()).add(rest)
        if not children:
            break
        for blocked, names in sorted(children.items(), key=lambda kv: len(kv[0])):
            fds = {name: os.open(os.path.join(blocked, name), os.O_PATH) for name in sorted(names)}
            try:
                _mount("tmpfs", blocked, "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=755,size=64k")
                for name, fd in fds.items():
                    target = os.path.join(blocked, name)
                    if stat.S_ISDIR(os.fstat(fd).st_mode):
                        os.mkdir(target)
                    else:
                        open(target, "w").close()  # an empty file as mount point
                    _mount(f"/proc/self/fd/{fd}", target, None, _MS_BIND | _MS_REC)
            finally:
                for fd in fds.values():
                    os.close(fd)
            exposed.append(blocked)
    return exposed


def _filesystem(workdir: str | None, uid: int | None, readable: Sequence[str]) -> LayerStatus:
    if not sys.platform.startswith("linux"):
        return LayerStatus(
            "filesystem", False, f"mount namespaces need Linux (this is {sys.platform})"
        )
    if workdir is None:
        return LayerStatus("filesystem", False, "no workdir given")
    try:
        _unshare(_CLONE_NEWNS)
        _mount(None, "/", None, _MS_REC | _MS_PRIVATE)
    except OSError as exc:
        os.chdir(workdir)
        return LayerStatus(
            "filesystem",
            False,
            f"mount namespace refused ({_reason(exc)}); only cwd/HOME/TMPDIR point into {workdir}",
        )
    work_fd = os.open(workdir, os.O_PATH | os.O_DIRECTORY)  # opened inside the new namespace
    try:
        exposed = _expose(readable, uid) if uid is not None else []
        failed = []
        for target, opts in _mount_points():
            if target in _SKIP_MOUNTS or "ro" in opts:
                continue
            keep = sum(
                flag
                for name, flag in (
                    ("nosuid", _MS_NOSUID),
                    ("nodev", _MS_NODEV),
                    ("noexec", _MS_NOEXEC),
                )
                if name in opts
            )
            try:
                _mount(None, target, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | keep)
            except OSError:
                failed.append(target)
        _mount("tmpfs", "/tmp", "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=1777,size=64m")
        if os.path.isdir("/dev/shm"):
            _mount("tmpfs", "/dev/shm", "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=1777,size=64m")
        os.makedirs(VIRTUAL_ROOT, mode=0o755)
        _mount(f"/proc/self/fd/{work_fd}", VIRTUAL_ROOT, None, _MS_BIND | _MS_REC)
        _mount(None, VIRTUAL_ROOT, None, _MS_BIND | _MS_REMOUNT | _MS_NOSUID | _MS_NODEV)
        os.chdir(VIRTUAL_ROOT)
    finally:
        os.close(work_fd)
    detail = f"every mount read-only; private tmpfs on /tmp and /dev/shm; workdir writable at {VIRTUAL_ROOT}"
    if exposed:
        detail += f"; {', '.join(exposed)} replaced by a tmpfs exposing only the interpreter"
    if failed:
        detail += f"; could not make read-only: {', '.join(failed)}"
    return LayerStatus("filesystem", True, detail)


# -- pid namespace ----------------------------------------------------------------------


def _pid_namespace(mount_proc: bool) -> LayerStatus:
    """Become init of a new PID namespace: fork; the parent mirrors the child's exit."""
    try:
        _unshare(_CLONE_NEWPID)
    except OSError as exc:
        return LayerStatus("pid", False, f"unshare(CLONE_NEWPID) refused ({_reason(exc)})")
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    child = os.fork()
    if child:  # the intermediate: wait, then exit exactly like the child did
        while True:
            try:
                _, status = os.waitpid(child, 0)
                break
            except ChildProcessError:
                os._exit(1)
            except InterruptedError:  # pragma: no cover - PEP 475 retries
                continue
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            signal.signal(sig, signal.SIG_DFL)
            os.kill(os.getpid(), sig)
        os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # (getppid() is 0 here: the parent is outside)
    detail = "init of a new PID namespace: every descendant dies with it"
    if mount_proc:
        try:
            _mount("proc", "/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
            detail += "; private /proc"
        except OSError as exc:
            detail += f"; host /proc still visible ({_reason(exc)})"
    return LayerStatus("pid", True, detail)


# -- rlimits and uid ----------------------------------------------------------------------


def _rlimits(limits: Limits) -> LayerStatus:
    mib = 1024 * 1024
    wanted = [
        ("cpu", resource.RLIMIT_CPU, limits.cpu_seconds, 1),
        ("as", resource.RLIMIT_AS, limits.memory_mb, mib),
        ("fsize", resource.RLIMIT_FSIZE, limits.file_size_mb, mib),
        ("nofile", resource.RLIMIT_NOFILE, limits.open_files, 1),
        ("nproc", resource.RLIMIT_NPROC, limits.processes, 1),
        ("core", resource.RLIMIT_CORE, 0, 1),
    ]
    set_, failed = [], []
    for name, which, value, unit in wanted:
        if value is None:
            continue
        try:
            resource.setrlimit(which, (value * unit, value * unit))
            set_.append(f"{name}={value}{'MiB' if unit == mib else ''}")
        except (OSError, ValueError) as exc:
            failed.append(f"{name} ({exc})")
    detail = ", ".join(set_) + (f"; failed: {', '.join(failed)}" if failed else "")
    return LayerStatus("rlimits", bool(set_), detail or "none requested")


def _drop_uid(
    uid: int | None, workdir: str | None, needed: Sequence[str], limits: Limits
) -> LayerStatus:
    if sys.platform.startswith("linux"):
        _prctl(_PR_SET_NO_NEW_PRIVS, 1)  # setuid binaries (su, sudo) cannot regain root
    if os.geteuid() != 0:
        note = (
            "" if limits.processes is None else "; RLIMIT_NPROC counts all of this user's processes"
        )
        return LayerStatus("uid", False, f"not root, runs as uid {os.geteuid()}{note}")
    if uid is None:
        return LayerStatus("uid", False, "uid drop disabled; RLIMIT_NPROC does not bind root")
    unreachable = [p for p in needed if not _traversable(p, uid)]
    if unreachable:
        return LayerStatus("uid", False, f"stays root: uid {uid} cannot read {unreachable[0]}")
    if workdir is not None:
        for root, dirs, files in os.walk(workdir):
            for name in [root, *(os.path.join(root, n) for n in dirs + files)]:
                os.lchown(name, uid, uid)
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
    return LayerStatus("uid", True, f"runs as unprivileged uid {uid} with no_new_privs")


def _needed_paths(readable: Sequence[str]) -> list[str]:
    paths = {os.path.realpath(sys.executable), sys.prefix, sys.base_prefix, *readable}
    paths.update(p for p in sys.path if p and os.path.isabs(p) and os.path.exists(p))
    return sorted(os.path.realpath(p) for p in paths if os.path.exists(p))


def enter_isolation(
    limits: Limits,
    *,
    allow_network: bool,
    workdir: str | os.PathLike[str] | None = None,
    uid: int | None = SANDBOX_UID,
    pid_namespace: bool = True,
    readable: Sequence[str] = (),
) -> tuple[LayerStatus, ...]:
    """Enter every available isolation layer; return what is (and is not) in force.

    Call it in a freshly forked child before running untrusted code. With
    ``pid_namespace`` the calling process forks once: the caller continues in
    the new child (PID 1 of the namespace) while the original process only
    waits and exits with the same status, so callers see no difference.
    When ``workdir`` is given and the mount namespace is available, the
    process ends with its cwd at :data:`VIRTUAL_ROOT` (the workdir's view);
    otherwise at ``workdir`` itself. ``readable`` lists extra paths the
    unprivileged uid must be able to read (``sys.path`` is included).
    """
    work = os.fspath(workdir) if workdir is not None else None
    needed = _needed_paths(readable)
    root = sys.platform.startswith("linux") and os.geteuid() == 0
    layers = [_new_session(), _network(allow_network)]
    if root:
        layers.append(_filesystem(work, uid, needed))
    else:
        if work is not None:
            os.chdir(work)
        layers.append(
            LayerStatus(
                "filesystem",
                False,
                "mount namespace needs root; only cwd/HOME/TMPDIR point into the workdir",
            )
        )
    fs_active = layers[-1].active
    if pid_namespace and root:
        layers.append(_pid_namespace(mount_proc=fs_active))
    elif pid_namespace:
        layers.append(
            LayerStatus(
                "pid",
                False,
                "PID namespace needs root; descendants are killed by process group only",
            )
        )
    layers.append(_rlimits(limits))
    layers.append(_drop_uid(uid, os.getcwd() if work is not None else None, needed, limits))
    return tuple(layers)
