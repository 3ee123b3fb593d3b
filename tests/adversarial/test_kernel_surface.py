"""What namespaces of the network and the filesystem do not stop, checked from outside: host unix
sockets (pathname and abstract), host SysV and POSIX IPC, the kernel keyring, kernel surface with
no use in a program (io_uring, userfaultfd, perf_event_open, nested user namespaces, ptrace, mount),
the hostname, and state left for the next run. Contained by the IPC and UTS namespaces and the
seccomp filter (automock/sandbox/kernel/ipc.py, seccomp.py)."""

from __future__ import annotations

import ctypes
import errno
import os
import re
import secrets
import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from .harness import Attack, Outcome, batch_attack, batch_attacks, cli_attack, run_attack

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/self/ns/ipc") or os.geteuid() != 0,
    reason="needs Linux namespaces and root (the sandbox's uid drop)",
)
PATHS = [pytest.param(run_attack, id="run"), pytest.param(batch_attack, id="batch")]
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.shmat.restype = ctypes.c_void_p
IPC_CREAT, IPC_EXCL, IPC_NOWAIT, IPC_RMID, GETVAL = 0o1000, 0o2000, 0o4000, 0, 12


def _layer(outcome: Outcome, name: str) -> dict[str, object]:
    found = [x for x in outcome.layers if x["name"] == name]
    assert found, outcome.explain()
    return found[0]


def _assert_filtered(outcome: Outcome) -> None:
    for name in ("ipc", "uts", "seccomp"):
        assert _layer(outcome, name)["active"], (name, outcome.explain())


# ---------------------------------------------------------------- host unix sockets


@dataclass
class UnixListeners:
    """A stream and a datagram socket under a world-traversable directory outside /tmp, and an
    abstract stream socket, all world-connectable; every connection or datagram is logged."""

    directory: str
    abstract: str = field(default_factory=lambda: "automock-adv-" + secrets.token_hex(6))
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stream_path = os.path.join(self.directory, "service.sock")
        self.dgram_path = os.path.join(self.directory, "log.sock")
        self._socks = []
        for address, kind in (
            (self.stream_path, socket.SOCK_STREAM),
            (self.dgram_path, socket.SOCK_DGRAM),
            ("\0" + self.abstract, socket.SOCK_STREAM),
        ):
            sock = socket.socket(socket.AF_UNIX, kind)
            sock.bind(address)
            if not address.startswith("\0"):
                os.chmod(address, 0o777)
            if kind == socket.SOCK_STREAM:
                sock.listen(8)
            sock.settimeout(0.2)
            self._socks.append(sock)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            for sock in self._socks:
                try:
                    if sock.type == socket.SOCK_STREAM:
                        conn, _ = sock.accept()
                        conn.close()
                        self.log.append(f"connection on {sock.getsockname()!r}")
                    else:
                        data = sock.recv(4096)
                        self.log.append(f"datagram {data!r}")
                except (TimeoutError, OSError):
                    continue

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        for sock in self._socks:
            sock.close()


@pytest.fixture
def listeners() -> Iterator[UnixListeners]:
    directory = tempfile.mkdtemp(prefix="automock-adv-sock-", dir="/var/tmp")
    os.chmod(directory, 0o755)
    srv = UnixListeners(directory)
    try:
        yield srv
    finally:
        srv.close()
        shutil.rmtree(directory, ignore_errors=True)


def _socket_args(srv: UnixListeners) -> tuple[str, str, str]:
    return srv.stream_path, srv.dgram_path, srv.abstract


def _assert_no_unix_escape(outcome: Outcome, srv: UnixListeners) -> None:
    assert srv.log == [], (srv.log, outcome.explain())
    assert not outcome.escaped_claim, outcome.explain()
    assert "connect pathname: EPERM" in outcome.stdout, outcome.explain()
    assert "raw socket(0x100000001): EPERM" in outcome.stdout, outcome.explain()
    assert "socketpair(SOCK_DGRAM) sendto: EPERM" in outcome.stdout, outcome.explain()
    assert "socketpair(SOCK_RAW) sendto: EPERM" in outcome.stdout, outcome.explain()
    # the uncaught refusal is a violation that names the call
    assert outcome.status == "violation", outcome.explain()
    assert "seccomp filter: socket(AF_UNIX)" in _detail(outcome), outcome.explain()
    _assert_filtered(outcome)


def _detail(outcome: Outcome) -> str:
    """The detail automock gave: of each run of the report, or of the candidate."""
    raw = outcome.raw
    if isinstance(raw, dict):
        return " ".join(str(r.get("detail", "")) for r in raw.get("runs", ()))
    return str(getattr(raw, "detail", ""))


@pytest.mark.parametrize("attack", [*PATHS, pytest.param(cli_attack, id="command")])
def test_host_unix_sockets_unreachable(attack: Attack, listeners: UnixListeners) -> None:
    outcome = attack("kern_unix_socket", *_socket_args(listeners))
    _assert_no_unix_escape(outcome, listeners)


# ---------------------------------------------------------------- host IPC


@dataclass
class HostIpc:
    """A SysV message queue, semaphore set and shm segment and a POSIX message queue, mode 0666."""

    keys: tuple[int, int, int] = field(
        default_factory=lambda: tuple(0x4D000000 + secrets.randbelow(1 << 20) for _ in range(3))
    )
    mq_name: str = field(default_factory=lambda: "/automock-adv-" + secrets.token_hex(6))

    def __post_init__(self) -> None:
        flags = IPC_CREAT | IPC_EXCL | 0o666
        self.qid = LIBC.msgget(self.keys[0], flags)
        self.sid = LIBC.semget(self.keys[1], 1, flags)
        self.mid = LIBC.shmget(self.keys[2], 4096, flags)
        self.addr = LIBC.shmat(self.mid, None, 0)
        self.mq = LIBC.mq_open(
            self.mq_name.encode(), os.O_CREAT | os.O_RDWR | os.O_NONBLOCK, 0o666, None
        )
        assert min(self.qid, self.sid, self.mid, self.mq) >= 0, os.strerror(ctypes.get_errno())

    def untouched(self) -> list[str]:
        """What the sandbox changed in the host's objects (nothing, when contained)."""
        changed = []
        buf = ctypes.create_string_buffer(8192)
        if LIBC.msgrcv(self.qid, buf, 64, 0, IPC_NOWAIT) >= 0:
            changed.append("a message arrived on the host queue")
        if LIBC.semctl(self.sid, 0, GETVAL) != 0:
            changed.append("the host semaphore moved")
        if ctypes.c_ubyte.from_address(self.addr).value != 0:
            changed.append("the host shm segment was written")
        if LIBC.mq_receive(self.mq, buf, 8192, None) >= 0:
            changed.append("a message arrived on the host POSIX queue")
        return changed

    def close(self) -> None:
        LIBC.shmdt(ctypes.c_void_p(self.addr))
        LIBC.msgctl(self.qid, IPC_RMID, None)
        LIBC.semctl(self.sid, 0, IPC_RMID)
        LIBC.shmctl(self.mid, IPC_RMID, None)
        LIBC.mq_unlink(self.mq_name.encode())
        os.close(self.mq)


@pytest.fixture
def host_ipc() -> Iterator[HostIpc]:
    objects = HostIpc()
    try:
        yield objects
    finally:
        objects.close()


@pytest.mark.parametrize("attack", PATHS)
def test_host_ipc_unreachable(attack: Attack, host_ipc: HostIpc) -> None:
    outcome = attack("kern_sysv_ipc", *map(str, host_ipc.keys), host_ipc.mq_name)
    assert not outcome.escaped_claim, outcome.explain()
    for call in ("msgget", "semget", "shmget", "mq_open"):
        assert f"{call}: ENOENT" in outcome.stdout, outcome.explain()
    assert host_ipc.untouched() == [], outcome.explain()
    _assert_filtered(outcome)


# ---------------------------------------------------------------- keyring


def _uid_of(outcome: Outcome) -> int:
    match = re.search(r"uid (\d+)", str(_layer(outcome, "uid")["detail"]))
    assert match, outcome.explain()
    return int(match[1])


def _key_in_user_keyring(uid: int, description: str) -> bool:
    """Whether ``uid``'s user keyring holds a ``user`` key ``description`` (looked up as ``uid``)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 2
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            found = LIBC.syscall(250, 10, -4, b"user", description.encode(), 0)  # KEYCTL_SEARCH
            code = 1 if found >= 0 else 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) in (0, 1), status
    return os.waitstatus_to_exitcode(status) == 1


@pytest.mark.parametrize("attack", PATHS)
def test_keyring_refused_and_empty_after(attack: Attack) -> None:
    description = "automock-adv-" + secrets.token_hex(6)
    outcome = attack("kern_keyring", description)
    assert not outcome.escaped_claim, outcome.explain()
    for call in ("add_key(-4)", "add_key(-3)", "request_key", "keyctl(GET_KEYRING_ID)"):
        assert f"{call}: EPERM" in outcome.stdout, outcome.explain()
    assert not _key_in_user_keyring(_uid_of(outcome), description)
    _assert_filtered(outcome)


# ---------------------------------------------------------------- kernel surface, hostname


@pytest.mark.parametrize("attack", PATHS)
def test_kernel_surface_refused_and_hostname_fixed(attack: Attack) -> None:
    outcome = attack("kern_surface")
    assert not outcome.escaped_claim, outcome.explain()
    for call in (
        "io_uring_setup",
        "userfaultfd",
        "perf_event_open",
        "unshare(CLONE_NEWUSER)",
        "clone(CLONE_NEWUSER)",
        "ptrace(ATTACH child)",
        "ptrace(ATTACH sibling)",
        "setns",
        "mount tmpfs",
        "bpf",
    ):
        assert f"{call}: EPERM" in outcome.stdout, (call, outcome.explain())
    assert "clone3: ENOSYS" in outcome.stdout, outcome.explain()
    assert "hostname automock\n" in outcome.stdout, outcome.explain()
    assert "proc hostname automock\n" in outcome.stdout, outcome.explain()
    if socket.gethostname() != "automock":
        assert socket.gethostname() not in outcome.stdout, outcome.explain()
    _assert_filtered(outcome)
    assert outcome.status == "passed", outcome.explain()


# ---------------------------------------------------------------- nothing lingers

_LINGER_KEY = 0x4D4B0A11


def _host_ipc_keys() -> set[int]:
    keys = set()
    for kind in ("msg", "sem", "shm"):
        with open(f"/proc/sysvipc/{kind}") as handle:
            for line in handle.read().splitlines()[1:]:
                keys.add(int(line.split()[0]))
    return keys


def _host_mqueue(name: str) -> bool:
    fd = LIBC.mq_open(name.encode(), os.O_RDONLY)
    if fd >= 0:
        os.close(fd)
        LIBC.mq_unlink(name.encode())
        return True
    assert ctypes.get_errno() == errno.ENOENT
    return False


def _assert_nothing_left(outcomes: list[Outcome]) -> None:
    assert _LINGER_KEY not in _host_ipc_keys()
    assert not _host_mqueue("/automock-adv-linger")
    for outcome in outcomes:
        assert not _key_in_user_keyring(_uid_of(outcome), "automock-adv-linger")
    first = outcomes[0].stdout
    # a POSIX mqueue lives in the run's IPC namespace, or Landlock refuses it outright
    mqueue = ("mqueue message left behind: False\n", "mq_open EACCES\n")
    assert any(line in first for line in mqueue), outcomes[0].explain()
    for expected in (
        "semaphore counter 1\n",
        "message left behind: False\n",
        "shm counter 1\n",
        "key left behind: False\n",
        "add_key EPERM\n",
        "sethostname EPERM\n",
        "hostname automock\n",
    ):
        assert expected in first, (expected, outcomes[0].explain())


def test_nothing_lingers_between_repeated_runs() -> None:
    from automock.pipeline.run import run_file

    from .harness import program

    assert _LINGER_KEY not in _host_ipc_keys()
    report = run_file(program("kern_linger"), timeout=10, repeat=2)
    data = report.to_dict()
    runs = [
        Outcome("run", r["status"], r["exit_code"], r["stdout"], r["stderr"], layers=data["layers"])
        for r in data["runs"]
    ]
    assert len(runs) == 2 and runs[0].stdout == runs[1].stdout, [r.explain() for r in runs]
    assert report.deterministic is True
    _assert_nothing_left(runs)


def test_nothing_lingers_between_batch_candidates() -> None:
    assert _LINGER_KEY not in _host_ipc_keys()
    outcomes = batch_attacks([("kern_linger", ())] * 3, timeout=10)
    assert len({o.stdout for o in outcomes}) == 1, [o.explain() for o in outcomes]
    _assert_nothing_left(outcomes)
    _assert_filtered(outcomes[0])


def test_kernel_surface_refused_unprivileged() -> None:
    """The same on the non-root path (uid 1000 in a user namespace): the namespaces come from
    the sandbox's user namespace, the filter needs only no_new_privs."""
    from .test_unprivileged import _run_unprivileged

    report = _run_unprivileged("kern_surface")
    layers = {layer["name"]: layer for layer in report["layers"]}
    assert all(layers[n]["active"] for n in ("ipc", "uts", "seccomp")), layers
    out = report["stdout"]
    assert "ESCAPED" not in out and "clone3: ENOSYS" in out, out
    for call in ("io_uring_setup", "userfaultfd", "perf_event_open", "unshare(CLONE_NEWUSER)"):
        assert f"{call}: EPERM" in out, out
    assert "hostname automock\n" in out, out
