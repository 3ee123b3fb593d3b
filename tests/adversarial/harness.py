"""Shared harness for the adversarial suite: loopback servers, process markers, and one helper per
execution path (``automock run`` through the CLI, and the batch pool through ``execute_many``).

Every attack program lives in ``programs/`` and prints ``ESCAPED ...`` when its attack worked; the
tests never trust that alone: each also checks the ground truth (the server saw no connection, the
file does not exist, no marked process survives).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import secrets
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import automock_command

PROGRAMS = Path(__file__).parent / "programs"
# statuses that say "the program did not get what it wanted" (run and batch vocabularies)
NOT_OK = {"error", "failed", "timeout", "memory", "violation", "unmocked"}


def program(name: str) -> Path:
    path = PROGRAMS / f"{name}.py"
    assert path.is_file(), path
    return path


@dataclass
class Outcome:
    """What one attack produced, normalised over the run and batch paths."""

    path: str  # "run" or "batch"
    status: str
    exit_code: int | None
    stdout: str
    stderr: str
    detail: str = ""
    layers: list[Any] = field(default_factory=list)
    raw: Any = None

    def require_started(self) -> Outcome:
        """The attack program really ran (a setup failure must not pass as containment)."""
        assert "ATTACK-START" in self.stdout, "the attack never started\n" + self.explain()
        return self

    @property
    def escaped_claim(self) -> bool:
        return "ESCAPED" in self.stdout

    def explain(self) -> str:
        return (
            f"[{self.path}] status={self.status} exit={self.exit_code} detail={self.detail[:300]!r}\n"
            f"stdout={self.stdout[-600:]!r}\nstderr={self.stderr[-600:]!r}"
        )


def _layers(raw: Any) -> list[Any]:
    out = []
    for layer in raw or ():
        out.append(layer.to_dict() if hasattr(layer, "to_dict") else layer)
    return out


def _run_argv(name: str, args: Sequence[str], timeout: float, extra: Sequence[str]) -> list[str]:
    argv = ["run", str(program(name)), "--json", "--no-save", "--timeout", str(timeout), *extra]
    return [*argv, "--", *args]


def _from_report(path: str, code: int, text: str, err: str) -> Outcome:
    try:
        report = json.loads(text)
    except ValueError:
        raise AssertionError(
            f"automock run did not print a JSON report (exit {code}): {text[-500:]!r} {err[-500:]!r}"
        ) from None
    detail = "; ".join(
        f"{u.get('api')} {u.get('target')} -> {u.get('fix')}" for u in report.get("unmocked") or ()
    )
    assert code == report["exit_code"], (code, report["exit_code"])
    return Outcome(
        path=path,
        status=report["status"],
        exit_code=report["exit_code"],
        stdout=report.get("stdout", ""),
        stderr=report.get("stderr", ""),
        detail=detail,
        layers=_layers(report.get("layers")),
        raw=report,
    ).require_started()


def run_attack(name: str, *args: str, timeout: float = 10.0, extra: Sequence[str] = ()) -> Outcome:
    """``automock run PROG --json --timeout T -- ARGS`` in-process (``cli.main``); the JSON report.

    In-process the sandbox child is a fresh interpreter (``start == "spawn"``), as for the API.
    """
    from automock.cli import main

    out, err = io.StringIO(), io.StringIO()
    # from a scratch cwd: a plan drafted for the attack (fixtures/<stem>.automock.json) lands there
    with (
        tempfile.TemporaryDirectory(prefix="automock-adv-cwd-") as scratch,
        contextlib.chdir(scratch),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        code = main(_run_argv(name, args, timeout, extra))
    return _from_report("run", code, out.getvalue(), err.getvalue())


def cli_attack(name: str, *args: str, timeout: float = 10.0, extra: Sequence[str] = ()) -> Outcome:
    """The same through the real command, ``python -m automock run ...``, in a new process.

    With ``--no-stable-addresses`` the command restarts itself with the run's hash seed and a
    scrubbed environment, then forks the sandbox child from its warm process (``start ==
    "fork"``): the path whose child shares the command's memory (the default path, a fresh
    interpreter per run, is the one :func:`attack` takes).
    Whatever the test put in ``os.environ`` (e.g. a secret) is in the command's environment.
    """
    with tempfile.TemporaryDirectory(prefix="automock-adv-cwd-") as scratch:
        done = automock_command(
            _run_argv(name, args, timeout, ("--no-stable-addresses", *extra)),
            cwd=scratch,
            timeout=timeout + 60,
        )
    outcome = _from_report("cli", done.returncode, done.stdout, done.stderr)
    assert [r["start"] for r in outcome.raw["runs"]] == ["fork"], outcome.explain()
    return outcome


def served_attack(
    name: str, *args: str, timeout: float = 10.0, extra: Sequence[str] = ()
) -> Outcome:
    """The real command handed to a warm server (``automock server start``), both started
    with whatever the test put in ``os.environ``; fails unless the server ran it. With
    ``--no-stable-addresses``, as :func:`cli_attack`: the sandbox child is then forked from
    the server's handler, whose memory it shares."""
    with tempfile.TemporaryDirectory(prefix="automock-adv-cwd-") as scratch:
        xdg = Path(scratch) / "xdg"
        xdg.mkdir(mode=0o700)
        env = {"XDG_RUNTIME_DIR": str(xdg)}
        try:
            started = automock_command(["server", "start"], cwd=scratch, **env)
            assert started.returncode == 0, started.stderr
            done = automock_command(
                _run_argv(name, args, timeout, ("--no-stable-addresses", *extra)),
                cwd=scratch,
                timeout=timeout + 60,
                **env,
            )
            status = automock_command(["server", "status"], cwd=scratch, **env).stdout
        finally:
            automock_command(["server", "stop"], cwd=scratch, **env)
    assert "; 2 connections served" in status, status  # start's status, then the run
    outcome = _from_report("served", done.returncode, done.stdout, done.stderr)
    assert [r["start"] for r in outcome.raw["runs"]] == ["fork"], outcome.explain()
    return outcome


def candidate_source(name: str, *args: str) -> str:
    """The program's source with its argv baked in, for the batch pool (which runs sources)."""
    prelude = f"import sys as _s; _s.argv[:] = [{str(program(name))!r}, *{list(args)!r}]\n"
    return prelude + program(name).read_text()


def batch_attack(name: str, *args: str, timeout: float = 10.0) -> Outcome:
    """One candidate through ``automock.execute_many`` (the warm pre-forked pool)."""
    return batch_attacks([(name, args)], timeout=timeout)[0]


def batch_attacks(
    items: Sequence[tuple[str, Sequence[str]]], *, timeout: float = 10.0
) -> list[Outcome]:
    from automock import execute_many

    sources = [candidate_source(name, *args) for name, args in items]
    results = list(execute_many(sources, timeout=timeout))
    assert len(results) == len(sources)
    return [
        Outcome(
            path="batch",
            status=r.status,
            exit_code=r.exit_code,
            stdout=r.stdout,
            stderr=r.stderr,
            detail=r.detail,
            layers=_layers(r.layers),
            raw=r,
        ).require_started()
        for r in results
    ]


Attack = Callable[..., Outcome]  # run_attack or batch_attack


# ---------------------------------------------------------------- ground truth


class LoopbackServer:
    """A TCP server on 127.0.0.1 that answers like HTTP and counts every connection it accepts."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.port: int = self.sock.getsockname()[1]
        self.accepted: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            with conn:
                conn.settimeout(1)
                data = b""
                with contextlib.suppress(OSError):
                    data = conn.recv(4096)
                self.accepted.append(data)
                with contextlib.suppress(OSError):
                    conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 6\r\n\r\nSECRET")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


class LoopbackResolver:
    """A UDP 'DNS resolver' on 127.0.0.1 that records every datagram it receives."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port: int = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                data, peer = self.sock.recvfrom(2048)
            except (TimeoutError, OSError):
                continue
            self.received.append(data)
            with contextlib.suppress(OSError):
                self.sock.sendto(data[:2] + b"\x81\x80" + data[4:], peer)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    srv = LoopbackServer()
    try:
        yield srv
    finally:
        srv.close()


@pytest.fixture
def resolver() -> Iterator[LoopbackResolver]:
    srv = LoopbackResolver()
    try:
        yield srv
    finally:
        srv.close()


def marked_processes(marker: str) -> list[tuple[int, str, str]]:
    """Live (non-zombie) processes whose name or command line carries ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read().decode(errors="replace")
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        comm = stat[stat.find("(") + 1 : stat.rfind(")")]
        state = stat[stat.rfind(")") + 2 : stat.rfind(")") + 3]
        if state in ("Z", "X"):
            continue
        if marker in comm or marker in cmdline:
            found.append((int(entry), state, f"{comm} | {cmdline[:80]}"))
    return found


def survivors(marker: str, grace: float = 2.0) -> list[tuple[int, str, str]]:
    """Marked processes still alive after ``grace`` seconds (SIGKILL delivery is asynchronous)."""
    deadline = time.monotonic() + grace
    alive = marked_processes(marker)
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = marked_processes(marker)
    return alive


def reap(found: list[tuple[int, str, str]]) -> None:
    """Kill what a failed test left behind, so one escape does not poison the next tests."""
    for pid, _, _ in found:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def marker() -> Iterator[str]:
    """A unique 15-char process name (fits /proc/PID/comm); survivors are reaped after the test."""
    mark = "amk" + secrets.token_hex(6)
    yield mark
    reap(marked_processes(mark))


@pytest.fixture
def secret_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[dict[str, str]]:
    """A secret in the parent's environment and a private key planted in a fake HOME."""
    secret = "s3cr3t-" + secrets.token_hex(8)
    home = tmp_path / "home"
    ssh = home / ".ssh"
    ssh.mkdir(parents=True)
    key = ssh / "id_rsa"
    key.write_text(
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{secret}\n-----END OPENSSH PRIVATE KEY-----\n"
    )
    key.chmod(0o600)
    ssh.chmod(0o700)
    monkeypatch.setenv("AUTOMOCK_TEST_SECRET", secret)
    monkeypatch.setenv("HOME", str(home))
    yield {"secret": secret, "home": str(home), "key": str(key)}


def python() -> str:
    return sys.executable
