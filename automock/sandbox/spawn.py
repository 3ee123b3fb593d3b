"""Spawning and watching one sandbox child (the parent side of a single run).

:func:`spawn` starts ``python -s -P -c <bootstrap> SPEC_FD`` at once, in its
own session with a scrubbed environment and stdin closed; the child warms
its imports while the parent is still scanning and drafting, then waits for
the spec on a pipe. :func:`finish` sends the spec, captures stdout/stderr up
to the output cap, kills the whole process group (and PID namespace) at the
timeout, and judges the outcome. :func:`abandon` kills and cleans up a child
that will not be used.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

import automock
from automock.runtime.events import Access
from automock.sandbox.isolation import LayerStatus, Limits
from automock.sandbox.result import RunOutcome, exit_code_for
from automock.sandbox.workdir import Workdir

__all__ = [
    "PACKAGE_ROOT",
    "ChildProcess",
    "Spawned",
    "abandon",
    "finish",
    "fixed_environment",
    "spawn",
]

PACKAGE_ROOT = str(Path(automock.__file__).resolve().parent.parent)
_BOOTSTRAP = (
    "import sys; sys.path.insert(0, {root!r}); {bytecode}"
    "from automock.sandbox.child import main; main()"
)
# until the child has warmed up: its imports read and write bytecode under this prefix
_BYTECODE = "sys.pycache_prefix = {prefix!r}; sys.dont_write_bytecode = False; "
_KILL_GRACE = 0.5  # seconds to keep draining after the program's main process ended


class ChildProcess(Protocol):
    """What :func:`finish` uses of a child: a ``subprocess.Popen`` or a forked child's handle."""

    pid: int
    returncode: Any
    stdout: IO[bytes] | None
    stderr: IO[bytes] | None

    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...
    def kill(self) -> None: ...


def _hash_seed(seed: int) -> str:
    try:
        from automock._seed import hash_seed_for
    except ImportError:
        return str(seed % 2**32)
    return str(hash_seed_for(seed))


def _bytecode_cache() -> str | None:
    """A private bytecode cache for the child's own start-up, when automock has no ``.pyc``.

    A checkout run with ``PYTHONDONTWRITEBYTECODE`` (or a read-only install) has no
    bytecode, so every child would compile automock's modules again. The child then
    reads and writes bytecode under ``$XDG_CACHE_HOME/automock/pycache`` (default
    ``~/.cache``) until it has warmed up, before any isolation or program code. The
    directory is used only if it is ours and nobody else can write to it.
    """
    import importlib.util

    if os.path.exists(importlib.util.cache_from_source(__file__)):
        return None  # installed with bytecode: nothing to gain
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    prefix = os.path.join(base, "automock", "pycache")
    try:
        os.makedirs(prefix, mode=0o700, exist_ok=True)
        info = os.stat(prefix)
    except OSError:
        return None
    if info.st_uid != os.geteuid() or info.st_mode & 0o022:
        return None
    return prefix


def fixed_environment(
    workdir: Path, seed: int, extra: dict[str, str] | None = None
) -> dict[str, str]:
    """The whole environment of the child: nothing is inherited from the parent."""
    env = {
        "PATH": os.pathsep.join(
            [os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]
        ),
        "HOME": str(workdir / "home"),
        "TMPDIR": str(workdir / "tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "USER": "automock",
        "PYTHONHASHSEED": _hash_seed(seed),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    env.update(extra or {})
    env["PYTHONHASHSEED"] = _hash_seed(seed)  # from the run's seed, whatever the plan says
    return env


class _Capture:
    """Reads the child's pipes until EOF, keeping at most ``cap`` bytes of each output."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data: dict[str, bytearray] = {
            "stdout": bytearray(),
            "stderr": bytearray(),
            "result": bytearray(),
        }
        self.dropped: dict[str, int] = {"stdout": 0, "stderr": 0, "result": 0}
        self.escaped = False  # a descendant outlived the main process holding a pipe

    def pump(self, proc: ChildProcess, result_fd: int, deadline: float) -> bool:
        """Drain until every pipe closes; return True if the deadline passed first."""
        sel = selectors.DefaultSelector()
        assert proc.stdout is not None and proc.stderr is not None
        sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
        sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
        sel.register(result_fd, selectors.EVENT_READ, "result")
        timed_out = False
        exited_at: float | None = None
        try:
            while sel.get_map():
                now = time.monotonic()
                if now >= deadline:
                    timed_out = not _exited(proc)
                    break
                if exited_at is None and _exited(proc):
                    exited_at = now
                if exited_at is not None and now - exited_at > _KILL_GRACE:
                    self.escaped = True
                    break  # a descendant escaped the group and holds a pipe open
                for key, _ in sel.select(timeout=min(0.1, deadline - now)):
                    chunk = os.read(key.fd, 65536)
                    if not chunk:
                        sel.unregister(key.fileobj)
                        continue
                    self._keep(key.data, chunk)
        finally:
            sel.close()
        return timed_out

    def _keep(self, name: str, chunk: bytes) -> None:
        buf = self.data[name]
        cap = self.cap if name != "result" else 64 * 1024 * 1024
        room = max(0, cap - len(buf))
        buf += chunk[:room]
        self.dropped[name] += len(chunk) - min(room, len(chunk))

    def text(self, name: str) -> str:
        text = self.data[name].decode("utf-8", "replace")
        if self.dropped[name]:
            text += f"\n[automock: output truncated after {self.cap} bytes]\n"
        return text


def _pid_namespace_of(pid: int) -> str | None:
    try:
        link = os.readlink(f"/proc/{pid}/ns/pid_for_children")
    except OSError:
        return None
    return None if link == os.readlink("/proc/self/ns/pid") else link


def _members(pgid: int, namespace: str | None) -> list[int]:
    """Processes still in the child's process group or PID namespace."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if namespace is not None and os.readlink(f"/proc/{entry}/ns/pid") == namespace:
                found.append(int(entry))
                continue
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            if int(fields[2]) == pgid:
                found.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return found


def _kill_group(proc: ChildProcess, namespace: str | None) -> None:
    """SIGKILL the group (and PID namespace); wait briefly until none of it is left."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    if not os.path.isdir("/proc/self/ns"):
        return
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        left = [pid for pid in _members(proc.pid, namespace) if pid != proc.pid]
        if not left:
            return
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        proc.poll()
        time.sleep(0.01)


def _exited(proc: ChildProcess) -> bool:
    """Has the child exited? (without reaping it, so :func:`_reap` still gets its rusage)"""
    if proc.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _reap(proc: ChildProcess) -> tuple[int, float]:
    """Wait for the child; return its exit code and the CPU seconds of it and its reaped tree."""
    if proc.returncode is None:
        with contextlib.suppress(ChildProcessError):
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            return proc.returncode, usage.ru_utime + usage.ru_stime
    return proc.wait(), 0.0


def _judge(
    returncode: int,
    timed_out: bool,
    child: dict[str, Any] | None,
    stderr: str,
    limits: Limits,
    cpu: float = 0.0,
) -> tuple[str, int, str]:
    """(status, exit_code, detail) from what the parent and the child each saw."""
    if timed_out:
        return (
            "timeout",
            exit_code_for("timeout", returncode),
            "wall-clock timeout; the process group was killed",
        )
    if returncode < 0:
        sig = -returncode
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        cpu_limit = limits.cpu_seconds
        if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu_limit and cpu >= cpu_limit):
            return (
                "timeout",
                exit_code_for("timeout", 0),
                f"CPU limit of {limits.cpu_seconds} s hit ({name})",
            )
        if sig == signal.SIGXFSZ:
            return (
                "violation",
                exit_code_for("violation", 0),
                f"file size limit of {limits.file_size_mb} MiB hit ({name})",
            )
        memoryish = sig == signal.SIGKILL or "memory" in stderr.lower() or "MemoryError" in stderr
        if (
            memoryish
            and limits.memory_mb is not None
            and sig in (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS)
        ):
            return (
                "memory",
                exit_code_for("memory", 0),
                f"killed by {name} under the {limits.memory_mb} MiB limit (or by an external kill)",
            )
        return "error", 128 + sig, f"killed by {name}"
    if child is not None and child.get("exit_code") != returncode:
        child = None  # the report and the real exit status disagree: trust the kernel
    if child is None:
        status = "ok" if returncode == 0 else "error"
        return status, returncode, "the program exited without reporting back (os._exit or exec)"
    status = str(child["status"])
    return status, exit_code_for(status, int(child["exit_code"])), str(child.get("detail", ""))


@dataclass
class Spawned:
    """A child that is starting up: waiting for its spec on ``spec_w``, or (forked) holding it."""

    proc: ChildProcess
    work: Workdir
    spec_w: int | None
    result_r: int
    started: float
    start: str = "spawn"  # or "fork" (automock.sandbox.forked)


def spawn(work: Workdir, env: dict[str, str]) -> Spawned:
    """Start the child interpreter for one run in ``work``; it waits for :func:`finish`."""
    started = time.perf_counter()
    prefix = _bytecode_cache()
    spec_r, spec_w = os.pipe()
    result_r, result_w = os.pipe()
    try:
        cmd = [
            sys.executable,
            "-s",
            "-P",
            "-c",
            _BOOTSTRAP.format(
                root=PACKAGE_ROOT,
                bytecode=_BYTECODE.format(prefix=prefix) if prefix is not None else "",
            ),
            str(spec_r),
            str(result_w),
            str(os.getpid()),  # the child dies with us (PR_SET_PDEATHSIG)
        ]
        import subprocess  # only this path starts an interpreter (the command forks)

        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(spec_r, result_w),
            start_new_session=True,
            env=env,
            cwd=work.root / "src",
        )
    except BaseException:
        for fd in (spec_w, result_r):
            os.close(fd)
        raise
    finally:
        os.close(spec_r)
        os.close(result_w)
    return Spawned(proc=proc, work=work, spec_w=spec_w, result_r=result_r, started=started)


def _close(spawned: Spawned) -> None:
    for fd in (spawned.spec_w, spawned.result_r):
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
    for stream in (spawned.proc.stdout, spawned.proc.stderr):
        if stream is not None:
            stream.close()
    spawned.work.cleanup()


def abandon(spawned: Spawned) -> None:
    """Kill a child that will not run (the parent failed before sending the spec)."""
    _kill_group(spawned.proc, None)
    spawned.proc.wait()
    _close(spawned)


def _send(fd: int, spec: dict[str, Any]) -> None:
    payload = json.dumps(spec).encode("utf-8")
    try:
        while payload:
            payload = payload[os.write(fd, payload) :]
    except BrokenPipeError:
        pass  # the child died while starting; its exit status tells the story
    finally:
        os.close(fd)


def _messages(raw: bytes) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The child's first ``started`` and last ``done`` message (JSON lines)."""
    started = done = None
    for line in raw.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict):
            continue
        if message.get("phase") == "started" and started is None:
            started = message
        elif message.get("phase") == "done":
            done = message
    return started, done


def finish(
    spawned: Spawned,
    spec: dict[str, Any],
    timeout: float,
    limits: Limits,
    *,
    collect: Callable[[Path], object] | None = None,
) -> RunOutcome:
    """Send ``spec``, watch the run to its end (or the timeout), clean up, judge.

    ``collect(workdir_root)`` is called after the child ended (not after an
    interrupt) and before the workdir is removed, e.g. to keep a recorded cassette.
    """
    proc = spawned.proc
    ended = False
    try:
        if spawned.spec_w is not None:
            _send(spawned.spec_w, spec)
            spawned.spec_w = None
        capture = _Capture(limits.output_bytes)
        timed_out = capture.pump(proc, spawned.result_r, time.monotonic() + timeout)
        if not _exited(proc) or capture.escaped:
            _kill_group(proc, _pid_namespace_of(proc.pid))
        returncode, cpu = _reap(proc)
        ended = True
    except BaseException:  # Ctrl-C or our own bug: the child is in its own session, end it
        _kill_group(proc, _pid_namespace_of(proc.pid))
        proc.wait()
        raise
    finally:
        try:
            if ended and collect is not None:
                collect(spawned.work.root)
        finally:
            _close(spawned)
    started, child = _messages(bytes(capture.data["result"]))
    stderr = capture.text("stderr")
    status, code, detail = _judge(returncode, timed_out, child, stderr, limits, cpu)
    if child is not None and child.get("exit_code") != returncode:
        child = None  # _judge distrusted it too
    layers = tuple(LayerStatus(**d) for d in (child or started or {}).get("layers", ()))
    layers += (LayerStatus("workdir", True, spawned.work.note),)
    return RunOutcome(
        exit_code=code,
        status=status,
        stdout=capture.text("stdout"),
        stderr=stderr,
        returncode=returncode,
        accesses=tuple(Access(**a) for a in (child or {}).get("accesses", ())),
        exception=(child or {}).get("exception"),
        truncated=any(capture.dropped[n] for n in ("stdout", "stderr")),
        seconds=time.perf_counter() - spawned.started,
        setup_seconds=float((child or {}).get("setup_seconds", 0.0)),
        layers=layers,
        detail=detail,
        start=spawned.start,
    )
