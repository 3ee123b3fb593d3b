"""The run report's isolation layers, observed by the parent from outside the sandbox.

The child enters its isolation itself (:func:`automock.sandbox.kernel.isolation.enter_isolation`)
and then writes its ``started`` line; it waits for the parent's go-ahead before it runs any
program code. In that pause the parent looks at the process the program is about to run in
through ``/proc/<pid>`` (:func:`observe`); only a layer it saw in force is reported ``on``:

- ``session``: the process group the parent kills at the timeout (``stat``);
- ``userns`` / ``mountlock`` (non-root): how deep its user namespace is nested below
  ours (``ioctl(NS_GET_PARENT)`` on ``ns/user``), its ``uid_map``;
- ``network``: ``ns/net`` differs from ours; no address up (``net/fib_trie``, ``net/if_inet6``);
- ``filesystem``: ``ns/mnt`` differs; in its ``mountinfo`` every reachable mount is
  read-only but private tmpfs on ``/tmp`` and ``/dev/shm`` and the workdir;
- ``pid``: ``NSpid`` ends in 1 (init of a new PID namespace); a private ``proc`` on ``/proc``;
- ``rlimits``: ``limits``; ``uid``: ``status`` (Uid, NoNewPrivs, CapEff);
- ``ipc``, ``uts``, ``time``, ``hostfacts``, ``seccomp``: ``ns/ipc``, ``ns/uts``, ``ns/time``
  differ, the masked ``/proc`` files, ``Seccomp: 2`` (:mod:`automock.sandbox.run.observe_kernel`).

An ``OFF`` layer carries the sandbox's reason from its ``started`` line, labelled. The
``runtime`` layer (the mocks, inside the program's own process) and the ``landlock``
layer (no trace in ``/proc``) cannot be seen from outside: each is the sandbox's
``started`` claim, labelled as such. (The ``cgroup`` layer is the parent's own doing:
:func:`automock.sandbox.kernel.cgroup.confine` reads the membership back from the kernel.)
None of this can be written by the program: it has not run yet, nor changed later.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from automock.sandbox.kernel.fsview import VIRTUAL_ROOT
from automock.sandbox.kernel.isolation import LayerStatus, Limits
from automock.sandbox.kernel.mountinfo import mounts, reachable
from automock.sandbox.kernel.syscalls import SKIP_MOUNTS
from automock.sandbox.run.observe_kernel import KERNEL_LAYERS, namespace_layers, seccomp_layer

__all__ = [
    "CLAIMED",
    "observe",
    "program_process",
    "unobserved",
]

CLAIMED = "reported by the sandbox before the program started"
_NS_GET_PARENT = 0xB702  # _IO(0xb7, 0x2)
_MIB = 1024 * 1024
# compiled here, not at first use: a warm server's handlers inherit them ready
_LIMIT_ROW = re.compile(r"^(Max [a-z ]+?)\s{2,}(\S+)\s+(\S+)")
_LOCAL_V4 = re.compile(r"\|-- (\d+\.\d+\.\d+\.\d+)\n\s+/32 host LOCAL")
_LIMITS = {  # /proc/<pid>/limits row -> (name in the report, Limits field, unit)
    "Max cpu time": ("cpu", "cpu_seconds", 1),
    "Max address space": ("as", "memory_mb", _MIB),
    "Max file size": ("fsize", "file_size_mb", _MIB),
    "Max open files": ("nofile", "open_files", 1),
    "Max processes": ("nproc", "processes", 1),
    "Max core file size": ("core", None, 1),
}


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


def _link(path: str) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def program_process(pid: int) -> int | None:
    """The process the program runs in: ``pid``, or its one child when ``pid`` made a PID
    namespace and forked its init (:func:`automock.sandbox.kernel.pidns.pid_namespace`)."""
    inner = _link(f"/proc/{pid}/ns/pid_for_children")
    if inner is None or inner == _link(f"/proc/{pid}/ns/pid"):
        return pid if inner is not None else None
    text = _read(f"/proc/{pid}/task/{pid}/children") or ""
    children = [int(c) for c in text.split()]
    if not children:  # no CONFIG_PROC_CHILDREN: look for it
        for entry in os.listdir("/proc"):
            status = _read(f"/proc/{entry}/status") if entry.isdigit() else None
            if status is not None and re.search(rf"^PPid:\s+{pid}$", status, re.M):
                children.append(int(entry))
    found = [c for c in children if _link(f"/proc/{c}/ns/pid") == inner]
    return found[0] if len(found) == 1 else None


def _status(pid: int) -> dict[str, str]:
    fields = {}
    for line in (_read(f"/proc/{pid}/status") or "").splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return fields


def _user_depth(pid: int) -> int | None:
    """How many user namespaces below ours ``pid`` runs (0: ours), None if unknown."""
    import fcntl

    own = os.stat("/proc/self/ns/user").st_ino
    opened: list[int] = []
    try:
        opened.append(os.open(f"/proc/{pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC))
        for depth in range(8):
            if os.fstat(opened[-1]).st_ino == own:
                return depth
            opened.append(fcntl.ioctl(opened[-1], _NS_GET_PARENT))
    except OSError:
        return None
    finally:
        for fd in opened:
            with contextlib.suppress(OSError):
                os.close(fd)
    return None


def _own_tmpfs(row: dict[str, Any], workdir: Path) -> bool:
    """Is mount ``row`` the root of the workdir's own tmpfs (a bounded workdir)?"""
    try:
        dev = os.stat(workdir).st_dev
    except OSError:
        return False
    return bool(row["root"] == "/" and row["dev"] == f"{os.major(dev)}:{os.minor(dev)}")


def _filesystem(pid: int, workdir: Path) -> tuple[bool, str, bool]:
    """(read-only view in force, detail, private /proc) from the process's ``mountinfo``."""
    ours = {r["dev"] for r in mounts("self")}
    rows = reachable(mounts(pid))
    at = {r["point"]: r for r in rows}
    private = {p for p in ("/tmp", "/dev/shm") if p in at and at[p]["fstype"] == "tmpfs"}
    private = {p for p in private if at[p]["dev"] not in ours}
    work = at.get(VIRTUAL_ROOT)
    bound = work is not None and (
        os.path.basename(work["root"]) == workdir.name or _own_tmpfs(work, workdir)
    )
    writable = [
        r["point"]
        for r in rows
        if "ro" not in r["options"] and r["point"] not in (*SKIP_MOUNTS, *private, VIRTUAL_ROOT)
    ]
    replaced = [
        r["point"]
        for r in rows
        if r["fstype"] == "tmpfs" and r["dev"] not in ours and r["point"] not in private
        if not r["point"].startswith("/proc/")  # the hostfacts layer's files, not a cover
    ]
    proc = at.get("/proc")
    private_proc = proc is not None and proc["fstype"] == "proc" and proc["dev"] not in ours
    root_ro = "/" in at and "ro" in at["/"]["options"]
    parts = ["every mount read-only" if root_ro else "/ is writable"]
    if private == {"/tmp", "/dev/shm"} or (private == {"/tmp"} and "/dev/shm" not in at):
        parts.append("private tmpfs on /tmp and /dev/shm")
    else:
        parts.append(f"private tmpfs only on {', '.join(sorted(private)) or 'nothing'}")
    parts.append(f"workdir writable at {VIRTUAL_ROOT}" if bound else "workdir not mounted")
    if replaced:
        parts.append(f"{', '.join(replaced)} replaced by a tmpfs exposing only the interpreter")
    if writable:
        parts.append(f"could not make read-only: {', '.join(writable)}")
    return root_ro and bound, "; ".join(parts), private_proc


def _rlimits(pid: int, limits: Limits, uid: str) -> tuple[bool, str]:
    observed: dict[str, tuple[float, float]] = {}
    for line in (_read(f"/proc/{pid}/limits") or "").splitlines():
        match = _LIMIT_ROW.match(line)
        if match and match[1] in _LIMITS:
            soft, hard = (
                float("inf") if v == "unlimited" else float(v) for v in match.groups()[1:]
            )
            observed[_LIMITS[match[1]][0]] = (soft, hard)
    shown, missing = [], []
    for name, field, unit in _LIMITS.values():
        wanted = getattr(limits, field) if field is not None else 0
        if wanted is None:
            continue
        soft, hard = observed.get(name, (float("inf"), float("inf")))
        if name == "nproc" and soft != float("inf") and soft >= wanted:
            extra = int(soft) - wanted
            shown.append(
                f"nproc={wanted}" + (f" (on top of {extra} tasks of uid {uid})" if extra else "")
            )
        elif soft <= wanted * unit and hard <= wanted * unit + (1 if name == "cpu" else 0):
            shown.append(f"{name}={int(soft // unit)}{'MiB' if unit == _MIB else ''}")
        else:
            missing.append(f"{name} ({'unlimited' if soft == float('inf') else int(soft)})")
    detail = ", ".join(shown) + (f"; not in force: {', '.join(missing)}" if missing else "")
    return bool(shown) and not missing, detail or "none requested"


def _addresses(pid: int) -> str:
    """Addresses up in the process's network namespace ("" if none)."""
    fib = _read(f"/proc/{pid}/net/fib_trie") or ""
    v4 = sorted(set(_LOCAL_V4.findall(fib)))
    v6 = (_read(f"/proc/{pid}/net/if_inet6") or "").split()
    return ", ".join(v4 + (["IPv6"] if v6 else []))


def _off(fact: str, claim: LayerStatus | None) -> str:
    """An OFF layer's detail: what was observed, and the sandbox's reason if it gave one."""
    if claim is None or claim.active or claim.detail == fact:
        return fact
    return f"{fact} (the sandbox said: {claim.detail})"


def observe(
    pid: int,
    *,
    limits: Limits,
    allow_network: bool,
    workdir: Path,
    claimed: Sequence[Mapping[str, Any]] = (),
    uid: int | None = None,
) -> tuple[LayerStatus, ...]:
    """The layers in force around the child ``pid`` (the sandbox process the parent started),
    seen from outside; ``claimed`` is the ``started`` line's layers (reasons and the runtime);
    ``uid``: the run's own uid, leased by the parent (the ``uid`` layer is on only for it)."""
    claims = {str(d["name"]): LayerStatus(d["name"], d["active"], d["detail"]) for d in claimed}
    target = program_process(pid)
    if target is None:
        return unobserved("the sandbox's process could not be found")
    status = _status(target)
    seen_uid = (status.get("Uid") or "?").split()[0]
    ns = {n: _link(f"/proc/{target}/ns/{n}") for n in ("net", "mnt", "user")}
    own = {n: _link(f"/proc/self/ns/{n}") for n in ns}
    root = os.geteuid() == 0
    depth = _user_depth(target) if not root else 0
    layers = [_session_layer(target, pid, claims)]
    if not root:
        layers.append(_userns_layer(target, depth, claims))
    if ns["net"] is not None and ns["net"] != own["net"]:
        up = _addresses(target)
        what = f"addresses up: {up}" if up else "no interface up (not even loopback)"
        layers.append(LayerStatus("network", True, f"new network namespace with {what}"))
    else:
        fact = (
            "real network allowed by --allow-network" if allow_network else "no network namespace"
        )
        layers.append(LayerStatus("network", False, _off(fact, claims.get("network"))))
    layers.extend(namespace_layers(target, claims))
    fs_on, fs_detail, private_proc = _filesystem(target, workdir)
    if ns["mnt"] is not None and ns["mnt"] != own["mnt"]:
        layers.append(LayerStatus("filesystem", fs_on, fs_detail))
    else:
        fact = "no mount namespace; only cwd/HOME/TMPDIR point into the workdir"
        layers.append(LayerStatus("filesystem", False, _off(fact, claims.get("filesystem"))))
    layers.append(_pid_layer(status, private_proc, claims))
    layers.append(LayerStatus("rlimits", *_rlimits(target, limits, seen_uid)))
    if not root:
        locked = depth is not None and depth > 1
        detail = "nested user namespace: read-only mounts locked, no capability over them"
        layers.append(
            LayerStatus("mountlock", True, detail)
            if locked
            else LayerStatus("mountlock", False, _off("mounts not locked", claims.get("mountlock")))
        )
    layers.append(_uid(status, seen_uid, root, limits, claims.get("uid"), uid))
    layers.append(_claimed("landlock", claims))
    layers.append(seccomp_layer(status, claims))
    layers.append(_runtime_layer(claims))
    return tuple(layers)


def _session_layer(target: int, pid: int, claims: Mapping[str, LayerStatus]) -> LayerStatus:
    stat = (_read(f"/proc/{target}/stat") or ")").rsplit(")", 1)[1].split()
    if len(stat) > 3 and stat[2] == str(pid):
        return LayerStatus("session", True, "own session and process group (killed as a group)")
    return LayerStatus(
        "session", False, _off("not in its own process group", claims.get("session"))
    )


def _userns_layer(target: int, depth: int | None, claims: Mapping[str, LayerStatus]) -> LayerStatus:
    inner, outer = [*(_read(f"/proc/{target}/uid_map") or "").split(), "?", "?"][:2]
    mapped = f"uid {inner} mapped to itself" if inner == outer else f"uid {inner} as {outer}"
    if depth:
        return LayerStatus("userns", True, f"user namespace with {mapped} (no real privilege)")
    return LayerStatus("userns", False, _off("no user namespace", claims.get("userns")))


def _pid_layer(
    status: Mapping[str, str], private_proc: bool, claims: Mapping[str, LayerStatus]
) -> LayerStatus:
    nspid = status.get("NSpid", "").split()
    if len(nspid) > 1 and nspid[-1] == "1":
        detail = "init of a new PID namespace: every descendant dies with it"
        return LayerStatus("pid", True, detail + ("; private /proc" if private_proc else ""))
    fact = "no PID namespace; descendants are killed by process group only"
    return LayerStatus("pid", False, _off(fact, claims.get("pid")))


def _runtime_layer(claims: Mapping[str, LayerStatus]) -> LayerStatus:
    """The one layer inside the program's own process: the sandbox's word, labelled."""
    return _claimed("runtime", claims)


def _claimed(name: str, claims: Mapping[str, LayerStatus]) -> LayerStatus:
    """A layer /proc does not show (the mocks; Landlock): the sandbox's word, labelled."""
    claim = claims.get(name)
    if claim is None:
        return LayerStatus(name, False, "not reported by the sandbox")
    return LayerStatus(name, claim.active, f"{claim.detail} ({CLAIMED})")


def _uid(
    status: Mapping[str, str],
    uid: str,
    root: bool,
    limits: Limits,
    claim: LayerStatus | None,
    own: int | None = None,
) -> LayerStatus:
    uids = set(status.get("Uid", "").split())
    nnp = status.get("NoNewPrivs") == "1"
    caps = int(status.get("CapEff", "0") or "0", 16)
    if not root:
        note = (
            "" if limits.processes is None else "; RLIMIT_NPROC counts all of this user's processes"
        )
        return LayerStatus("uid", False, f"not root, runs as uid {uid}{note}")
    if len(uids) == 1 and uid not in ("0", "?") and nnp and not caps:
        if own is None:
            return LayerStatus("uid", True, f"runs as unprivileged uid {uid} with no_new_privs")
        if uid == str(own):
            detail = f"runs as unprivileged uid {uid} (this run's own) with no_new_privs"
            return LayerStatus("uid", True, detail)
        return LayerStatus("uid", False, _off(f"runs as uid {uid}, not its own {own}", claim))
    fact = f"runs as uid {'/'.join(sorted(uids)) or '?'}" + ("" if nnp else ", no_new_privs unset")
    return LayerStatus("uid", False, _off(fact, claim))


def unobserved(why: str) -> tuple[LayerStatus, ...]:
    """Every layer OFF: the parent saw none of them in force (``why`` says why not)."""
    names = ["session", "network", *KERNEL_LAYERS[:4], "filesystem", "pid", "rlimits", "uid"]
    if os.geteuid() != 0:
        names[1:1] = ["userns"]
        names[-1:-1] = ["mountlock"]
    names += ["landlock", *KERNEL_LAYERS[4:], "runtime", "cgroup", "cpu"]
    return tuple(LayerStatus(n, False, f"not observed: {why}") for n in names)
