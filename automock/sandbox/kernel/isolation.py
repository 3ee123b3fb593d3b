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
* ``ipc`` / ``uts``: new IPC and UTS namespaces, a fixed hostname
  (:mod:`automock.sandbox.kernel.ipc`).
* ``filesystem``: a private mount namespace in which every existing mount is
  read-only, ``/tmp`` and ``/dev/shm`` are fresh private tmpfs, and the
  workdir is bound read-write at :data:`VIRTUAL_ROOT`; directories the
  unprivileged uid cannot traverse (``/root``) are replaced by a tmpfs that
  exposes only the interpreter and ``sys.path`` entries.
* ``pid``: a new PID namespace whose init is the program's process; when it
  exits the kernel kills every descendant, including daemons that ``setsid``.
* ``hostfacts`` / ``time`` (:mod:`automock.sandbox.kernel.hostfacts`): fixed host facts in
  ``/proc``; clocks from boot at a fixed start (joined once the spec is in).
* ``rlimits``: CPU, address space, file size, open files, processes.
* ``uid``: when root, drop to an unprivileged uid (so ``RLIMIT_NPROC`` holds)
  with ``no_new_privs`` set.
* ``seccomp``: last, a syscall filter (:mod:`automock.sandbox.kernel.seccomp`); in a batch
  lane's reused network namespace (:mod:`automock.sandbox.kernel.netns`) it refuses sockets.
"""

from __future__ import annotations

import os
import resource
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from automock._serialize import JsonMixin
from automock.errors import SandboxError
from automock.sandbox.kernel.fsview import VIRTUAL_ROOT, filesystem_layer, traversable
from automock.sandbox.kernel.hostfacts import facts_layer, time_layer
from automock.sandbox.kernel.ipc import ipc_uts
from automock.sandbox.kernel.landlock import prepare as _prepare_landlock
from automock.sandbox.kernel.landlock import restrict as _landlock
from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.netns import joined, network_layer
from automock.sandbox.kernel.pidns import pid_namespace as _enter_pid_namespace
from automock.sandbox.kernel.pidns import rearm_after_uid_change
from automock.sandbox.kernel.seccomp import prepare as _prepare_filter
from automock.sandbox.kernel.seccomp import syscall_filter
from automock.sandbox.kernel.syscalls import (
    CLONE_NEWNS,
    CLONE_NEWUSER,
    PR_SET_DUMPABLE,
    PR_SET_NO_NEW_PRIVS,
    prctl,
    reason,
    unshare,
)
from automock.sandbox.kernel.tasks import tasks_of

__all__ = [
    "SANDBOX_UID",
    "VIRTUAL_ROOT",
    "LayerStatus",
    "Limits",
    "enter_isolation",
    "enter_namespaces",
    "tasks_for_child",
]

SANDBOX_UID = 65534  # nobody


@dataclass(frozen=True, slots=True)
class Limits(JsonMixin):
    """Resource limits for one sandboxed program (``None`` = leave as inherited)."""

    cpu_seconds: int | None = 31
    memory_mb: int | None = 1024
    file_size_mb: int | None = 64
    open_files: int | None = 256
    processes: int | None = 64
    output_bytes: int = 1 << 20


def _new_session() -> LayerStatus:
    try:
        os.setsid()
    except OSError:
        if os.getsid(0) != os.getpid():
            return LayerStatus("session", False, "could not start a new session")
    return LayerStatus("session", True, "own session and process group (killed as a group)")


def _map_own_ids(uid: int, gid: int) -> None:
    """In a new user namespace: map our own uid and gid to themselves (and deny setgroups)."""
    for name, text in (
        ("setgroups", "deny"),
        ("uid_map", f"{uid} {uid} 1"),
        ("gid_map", f"{gid} {gid} 1"),
    ):
        with open(f"/proc/self/{name}", "wb") as handle:
            handle.write(text.encode())


def _user_namespace() -> LayerStatus:
    """Unprivileged: a user namespace (own uid mapped to itself) unlocks the other namespaces."""
    uid, gid = os.getuid(), os.getgid()
    try:
        prctl(PR_SET_DUMPABLE, 1)  # after a setuid /proc/self/*_map would be root's
        unshare(CLONE_NEWUSER)
        _map_own_ids(uid, gid)
    except OSError as exc:
        return LayerStatus("userns", False, f"unprivileged user namespace refused ({reason(exc)})")
    return LayerStatus(
        "userns", True, f"user namespace with uid {uid} mapped to itself (no real privilege)"
    )


def _lock_mounts() -> LayerStatus:
    """Unprivileged path: the read-only remounts were made with this user namespace's
    capabilities, which the program still holds and could use to remount them writable.
    A nested user + mount namespace locks every inherited mount flag (MNT_LOCK_READONLY)
    and leaves the program no capability over the mounts it was given."""
    uid, gid = os.getuid(), os.getgid()
    try:
        unshare(CLONE_NEWUSER | CLONE_NEWNS)
        _map_own_ids(uid, gid)
    except OSError as exc:
        return LayerStatus(
            "mountlock", False, f"mounts not locked ({reason(exc)}); the program could undo them"
        )
    return LayerStatus(
        "mountlock", True, "nested user namespace: read-only mounts locked, no capability over them"
    )


# -- filesystem ---------------------------------------------------------------------

# -- rlimits and uid ----------------------------------------------------------------------


def tasks_for_child(uid: int | None = SANDBOX_UID) -> int:
    """The tasks a child's ``RLIMIT_NPROC`` is counted on top of (``tasks=`` of
    :func:`enter_isolation`): counted by the parent, so the child's own memory does
    not depend on how many processes the machine runs (address-stable runs)."""
    if sys.platform.startswith("linux") and os.geteuid() == 0:
        return tasks_of(uid) if uid is not None else 0
    return tasks_of(os.getuid())


def _rlimits(limits: Limits, uid: int | None, existing: int | None = None) -> LayerStatus:
    """Set the limits; ``processes`` is counted on top of what ``uid`` already runs."""
    mib = 1024 * 1024
    processes = limits.processes
    if existing is None:
        existing = tasks_of(uid) if uid is not None and uid != 0 and processes is not None else 0
    if processes is not None:
        processes += existing
    wanted = [
        ("cpu", resource.RLIMIT_CPU, limits.cpu_seconds, 1),
        ("as", resource.RLIMIT_AS, limits.memory_mb, mib),
        ("fsize", resource.RLIMIT_FSIZE, limits.file_size_mb, mib),
        ("nofile", resource.RLIMIT_NOFILE, limits.open_files, 1),
        ("nproc", resource.RLIMIT_NPROC, processes, 1),
        ("core", resource.RLIMIT_CORE, 0, 1),
    ]
    set_, failed = [], []
    for name, which, value, unit in wanted:
        if value is None:
            continue
        try:
            # CPU: SIGXCPU at the soft limit (reported as a timeout), SIGKILL a second later
            hard = value * unit + (1 if which == resource.RLIMIT_CPU else 0)
            resource.setrlimit(which, (value * unit, hard))
            # nproc as asked (no count of other tasks in the text: the child's memory stays
            # the same whatever else runs; the parent's observation names the count)
            shown = limits.processes if name == "nproc" else value
            set_.append(f"{name}={shown}{'MiB' if unit == mib else ''}")
        except (OSError, ValueError) as exc:
            failed.append(f"{name} ({exc})")
    detail = ", ".join(set_) + (f"; failed: {', '.join(failed)}" if failed else "")
    return LayerStatus("rlimits", bool(set_), detail or "none requested")


def _drop_uid(
    uid: int | None, workdir: str | None, needed: Sequence[str], limits: Limits
) -> LayerStatus:
    if sys.platform.startswith("linux"):
        prctl(PR_SET_NO_NEW_PRIVS, 1)  # setuid binaries (su, sudo) cannot regain root
    if os.geteuid() != 0:
        note = (
            "" if limits.processes is None else "; RLIMIT_NPROC counts all of this user's processes"
        )
        return LayerStatus("uid", False, f"not root, runs as uid {os.geteuid()}{note}")
    if uid is None:
        return LayerStatus("uid", False, "uid drop disabled; RLIMIT_NPROC does not bind root")
    unreachable = _unreachable(tuple(needed), uid)
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


# Both are pure functions of the host's (static) directory tree: the batch pool's
# zygote computes them once (warm_isolation) and its forked children reuse them.
_NEEDED: dict[tuple[object, ...], list[str]] = {}
_UNREACHABLE: dict[tuple[tuple[str, ...], int], list[str]] = {}


def _needed_paths(readable: Sequence[str]) -> list[str]:
    key = (tuple(readable), tuple(sys.path), sys.executable)
    if key not in _NEEDED:
        paths = {os.path.realpath(sys.executable), sys.prefix, sys.base_prefix, *readable}
        paths.update(p for p in sys.path if p and os.path.isabs(p) and os.path.exists(p))
        _NEEDED[key] = sorted(os.path.realpath(p) for p in paths if os.path.exists(p))
    return list(_NEEDED[key])


def _unreachable(needed: tuple[str, ...], uid: int) -> list[str]:
    if (needed, uid) not in _UNREACHABLE:
        _UNREACHABLE[needed, uid] = [p for p in needed if not traversable(p, uid)]
    return _UNREACHABLE[needed, uid]


def warm_isolation(
    uid: int | None, readable: Sequence[str] = (), *, landlock_low: int | None = None
) -> None:
    """Compute, in a process that forks sandbox children, what each would compute the same.

    ``landlock_low``: also open the paths of the Landlock rules, at fds from this one up,
    which children must keep open (:func:`automock.sandbox.kernel.landlock.prepare`)."""
    needed = _needed_paths(readable)
    if uid is not None:
        _unreachable(tuple(needed), uid)
    _prepare_filter()  # the seccomp filter, exported once: children only load it
    if landlock_low is not None and sys.platform.startswith("linux"):
        _prepare_landlock(needed, landlock_low)


def _filesystem(
    work: str | None, uid: int | None, needed: Sequence[str], namespaces: bool, hide: Sequence[str]
) -> LayerStatus:
    """The read-only mount namespace with the workdir writable, where namespaces work."""
    if namespaces:
        return filesystem_layer(work, uid, needed, hide)
    if work is not None:
        os.chdir(work)
    linux = sys.platform.startswith("linux")
    reason = "needs root or a user namespace" if linux else f"needs Linux (this is {sys.platform})"
    return LayerStatus(
        "filesystem",
        False,
        f"mount namespace {reason}; only cwd/HOME/TMPDIR point into the workdir",
    )


def _pid(namespaces: bool, *, mount_proc: bool) -> LayerStatus:
    """Become init of a new PID namespace (this process continues in a new child)."""
    if namespaces:
        return _enter_pid_namespace(mount_proc=mount_proc)
    return LayerStatus(
        "pid", False, "PID namespace unavailable; descendants are killed by process group only"
    )


def _tasks_now(
    tasks: int | Callable[[], int] | None, *, count: bool, uid: int | None
) -> int | None:
    """``uid``'s tasks as given, or counted system-wide now (before a private ``/proc`` hides
    them); None: counted later (a function that waits for the parent's count, or by
    :func:`_rlimits`). ``count=False``: the caller knows there are none."""
    if isinstance(tasks, int):
        return tasks
    if tasks is not None:
        return None
    if not count:
        return 0
    return tasks_of(uid) if uid is not None else None


_ENTERED: list[tuple[bool, str | None, list[str]]] = []  # enter_namespaces' network, workdir, paths


def enter_namespaces(
    *,
    allow_network: bool,
    workdir: str | os.PathLike[str] | None = None,
    uid: int | None = SANDBOX_UID,
    pid_namespace: bool = True,
    readable: Sequence[str] = (),
    hidden: Sequence[str] = (),
) -> tuple[LayerStatus, ...]:
    """The first steps of :func:`enter_isolation`, up to the PID namespace (session, user,
    network, IPC and UTS namespaces, filesystem, PID namespace): they depend on these
    arguments only, so a sandbox child can take them before its spec arrives and pass what
    they returned as ``entered``. The caller's cwd ends at the workdir's view. The network
    namespace: a new one, or a lane's empty one joined ahead (:mod:`.netns`)."""
    work = os.fspath(workdir) if workdir is not None else None
    root = sys.platform.startswith("linux") and os.geteuid() == 0
    layers = [_new_session()]
    if sys.platform.startswith("linux") and not root:
        layers.append(_user_namespace())
    namespaces = root or (len(layers) > 1 and layers[-1].active)
    layers.append(network_layer(allow_network))
    layers.extend(ipc_uts(namespaces))
    needed = _needed_paths(readable)
    layers.append(_filesystem(work, uid if root else None, needed, namespaces, hidden))
    if pid_namespace:
        layers.append(_pid(namespaces, mount_proc=layers[-1].active))
        layers.append(facts_layer(layers[-2].active))  # on the private /proc, if any
    _ENTERED[:] = [(allow_network, work, needed)]
    return tuple(layers)


def enter_isolation(
    limits: Limits,
    *,
    allow_network: bool,
    workdir: str | os.PathLike[str] | None = None,
    uid: int | None = SANDBOX_UID,
    pid_namespace: bool = True,
    readable: Sequence[str] = (),
    count_tasks: bool = True,
    landlock: bool = True,
    tasks: int | Callable[[], int] | None = None,
    entered: tuple[LayerStatus, ...] | None = None,
    hidden: Sequence[str] = (),
) -> tuple[LayerStatus, ...]:
    """Enter every available isolation layer; return what is (and is not) in force.

    Call it in a freshly forked child before running untrusted code. With ``pid_namespace``
    the calling process forks once: the caller continues in the new child (PID 1 of the
    namespace) while the original process only waits and exits with the same status, so
    callers see no difference. When ``workdir`` is given and the mount namespace is
    available, the process ends with its cwd at :data:`VIRTUAL_ROOT` (the workdir's view);
    otherwise at ``workdir`` itself. ``readable`` lists extra paths the unprivileged uid
    must be able to read (``sys.path`` is included); ``hidden``, paths it must never see
    (covered in the mount namespace: :func:`~automock.sandbox.kernel.fsview.hide`).
    ``count_tasks=False``: ``uid`` runs no task yet (a fresh PID namespace, private ``/proc``),
    do not count them. ``tasks``: ``uid``'s tasks as the parent counted them
    (:func:`tasks_for_child`), or a function waiting for that count, called at the rlimits
    step (the parent counts while the namespaces are entered). ``entered``: what
    :func:`enter_namespaces` returned for the same arguments, taken ahead (then give ``tasks``:
    a private ``/proc`` hides other tasks). ``landlock``: end with the read allow-list.
    """
    work = os.fspath(workdir) if workdir is not None else None
    needed = _needed_paths(readable)
    linux = sys.platform.startswith("linux")
    root = linux and os.geteuid() == 0
    counted = uid if root and limits.processes is not None else None
    existing = _tasks_now(tasks, count=count_tasks and entered is None, uid=counted)
    if entered is None:
        entered = enter_namespaces(
            allow_network=allow_network,
            workdir=workdir,
            uid=uid,
            pid_namespace=pid_namespace,
            readable=readable,
            hidden=hidden,
        )
    elif [(allow_network, work, needed)] != _ENTERED:
        raise SandboxError("namespaces entered ahead for another network, workdir or read paths")
    namespaces = root or any(x.name == "userns" and x.active for x in entered)
    layers = [*entered, *([time_layer(namespaces)] if pid_namespace else ())]  # clocks from now
    existing = tasks() if callable(tasks) else existing  # a count the parent sends: now
    layers.append(_rlimits(limits, uid if root else os.getuid(), existing))
    if namespaces and not root:
        layers.append(_lock_mounts())
    layers.append(_drop_uid(uid, os.getcwd() if work is not None else None, needed, limits))
    rearm_after_uid_change()  # a uid change clears PR_SET_PDEATHSIG
    if landlock and linux:  # after no_new_privs (set by _drop_uid)
        layers.append(_landlock(needed, os.getcwd()))
    layers.append(syscall_filter(sockets=not joined()))  # last: after mounts, uid, landlock
    return tuple(layers)
