"""Parent side of a sandboxed run: spawn a fresh interpreter, watch it, judge N runs.

:func:`run_file` scans the file, builds a plan when none is given, and for
each of ``repeat`` runs makes a fresh workdir copy, starts
``python -s -P -c <bootstrap> spec.json`` in its own session with a scrubbed
environment and stdin closed, captures stdout/stderr up to the output cap,
kills the whole process group at the timeout, and turns what happened into
a :class:`~automock.sandbox.result.RunOutcome`. Runs are compared for the
determinism verdict.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import math
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import automock
from automock.analysis.model import Touchpoint
from automock.errors import InputError
from automock.plan.model import Plan
from automock.runtime.events import Access
from automock.sandbox.isolation import LayerStatus, Limits
from automock.sandbox.result import RunOutcome, RunReport, exit_code_for
from automock.sandbox.workdir import make_workdir

__all__ = ["fixed_environment", "run_file", "run_source"]

PACKAGE_ROOT = str(Path(automock.__file__).resolve().parent.parent)
_BOOTSTRAP = (
    "import sys; sys.path.insert(0, {root!r}); from automock.sandbox.child import main; main()"
)
_KILL_GRACE = 0.5  # seconds to keep draining after the program's main process ended


def _hash_seed(seed: int) -> str:
    try:
        from automock.runtime.entropy import hash_seed_for
    except ImportError:
        return str(seed % 2**32)
    return str(hash_seed_for(seed))


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

    def pump(self, proc: subprocess.Popen[bytes], result_fd: int, deadline: float) -> bool:
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
                    timed_out = proc.poll() is None
                    break
                if exited_at is None and proc.poll() is not None:
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


def _kill_group(proc: subprocess.Popen[bytes], namespace: str | None) -> None:
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


def _judge(
    returncode: int, timed_out: bool, child: dict[str, Any] | None, stderr: str, limits: Limits
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
        if sig == signal.SIGXCPU:
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
                f"killed by {name} under the {limits.memory_mb} MiB limit",
            )
        return "error", 128 + sig, f"killed by {name}"
    if child is None:
        status = "ok" if returncode == 0 else "error"
        return status, returncode, "the program exited without reporting back (os._exit or exec)"
    status = str(child["status"])
    return status, exit_code_for(status, int(child["exit_code"])), str(child.get("detail", ""))


def _one_run(
    script: Path,
    plan: Plan | None,
    args: Sequence[str],
    timeout: float,
    limits: Limits,
    seed: int,
    allow_network: bool,
) -> RunOutcome:
    started = time.perf_counter()
    work = make_workdir(script)
    read_fd, write_fd = os.pipe()
    try:
        spec_fd, spec_path = tempfile.mkstemp(prefix="spec-", suffix=".json", dir=work.root)
        spec = {
            "workdir": str(work.root),
            "script_rel": work.script_rel,
            "args": list(args),
            "plan": plan.to_dict() if plan is not None else None,
            "seed": seed,
            "limits": limits.to_dict(),
            "allow_network": allow_network,
            "result_fd": write_fd,
            "package_root": PACKAGE_ROOT,
            "readable": [PACKAGE_ROOT],
        }
        with os.fdopen(spec_fd, "w", encoding="utf-8") as handle:
            json.dump(spec, handle)
        env = fixed_environment(work.root, seed, dict(plan.env) if plan is not None else None)
        cmd = [sys.executable, "-s", "-P", "-c", _BOOTSTRAP.format(root=PACKAGE_ROOT), spec_path]
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(write_fd,),
            start_new_session=True,
            env=env,
            cwd=work.root / "src",
        )
        os.close(write_fd)
        write_fd = -1
        capture = _Capture(limits.output_bytes)
        timed_out = capture.pump(proc, read_fd, time.monotonic() + timeout)
        if proc.poll() is None or capture.escaped:
            _kill_group(proc, _pid_namespace_of(proc.pid))
        returncode = proc.wait()
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()
        proc.stderr.close()
        raw = bytes(capture.data["result"])
        try:
            child = json.loads(raw) if raw else None
        except ValueError:
            child = None
        stderr = capture.text("stderr")
        status, code, detail = _judge(returncode, timed_out, child, stderr, limits)
        layers = tuple(LayerStatus(**d) for d in (child or {}).get("layers", ()))
        layers += (LayerStatus("workdir", True, work.note),)
        return RunOutcome(
            exit_code=code,
            status=status,
            stdout=capture.text("stdout"),
            stderr=stderr,
            returncode=returncode,
            accesses=tuple(Access(**a) for a in (child or {}).get("accesses", ())),
            exception=(child or {}).get("exception"),
            truncated=any(capture.dropped[n] for n in ("stdout", "stderr")),
            seconds=time.perf_counter() - started,
            layers=layers,
            detail=detail,
        )
    finally:
        os.close(read_fd)
        if write_fd >= 0:
            os.close(write_fd)
        work.cleanup()


def _first_divergence(runs: Sequence[RunOutcome]) -> str:
    first = runs[0]
    for index, other in enumerate(runs[1:], start=2):
        for name in ("stdout", "stderr"):
            a, b = getattr(first, name), getattr(other, name)
            if a != b:
                lines = difflib.unified_diff(
                    a.splitlines(keepends=True),
                    b.splitlines(keepends=True),
                    fromfile=f"run 1 {name}",
                    tofile=f"run {index} {name}",
                )
                text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
                cut = text.splitlines(keepends=True)
                return "".join(cut[:200]) + (
                    f"... ({len(cut) - 200} more diff lines)\n" if len(cut) > 200 else ""
                )
        if first.exit_code != other.exit_code:
            return f"--- run 1 exit code\n+++ run {index} exit code\n-{first.exit_code}\n+{other.exit_code}\n"
    return ""


def _scan(path: Path, source: str) -> tuple[Touchpoint, ...]:
    try:
        from automock.analysis.scanner import scan_source
    except ImportError:
        return ()
    return tuple(scan_source(source, str(path)).touchpoints)


def _default_plan(path: Path, touchpoints: tuple[Touchpoint, ...], seed: int) -> tuple[Plan, str]:
    try:
        from automock.drafting import draft
    except ImportError:
        from automock.sandbox.defaults import default_plan_for

        return default_plan_for(touchpoints, str(path), seed), "default"
    return draft(str(path), drafter="rules", touchpoints=touchpoints, seed=seed), "drafted (rules)"


def _check_file(path: str | os.PathLike[str]) -> tuple[Path, str]:
    target = Path(path)
    if not target.exists():
        raise InputError(f"{target}: no such file; give the path of a Python file to run")
    if not target.is_file():
        raise InputError(f"{target}: not a file; give the path of a Python file to run")
    try:
        source = target.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{target}: cannot read it as UTF-8 text ({exc})") from None
    try:
        compile(source, str(target), "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise InputError(
            f"{target}:{exc.lineno}: syntax error ({exc.msg}); fix the file and retry"
        ) from None
    return target, source


def run_file(
    path: str | os.PathLike[str],
    plan: Plan | None = None,
    *,
    args: Sequence[str] = (),
    timeout: float = 30.0,
    limits: Limits | None = None,
    seed: int | None = None,
    allow_network: bool = False,
    repeat: int = 1,
    plan_label: str = "",
) -> RunReport:
    """Run ``path`` as ``__main__`` in the sandbox ``repeat`` times and report.

    ``plan=None`` drafts one (rules drafter, else :func:`default_plan_for`);
    ``seed`` overrides the plan's seed. ``limits=None`` uses :class:`Limits`
    with ``cpu_seconds = ceil(timeout) + 1``.
    """
    t0 = time.perf_counter()
    target, source = _check_file(path)
    if repeat < 1:
        raise InputError(f"--repeat {repeat}: expected a number of runs >= 1")
    if timeout <= 0:
        raise InputError(f"--timeout {timeout}: expected a number of seconds > 0")
    touchpoints = _scan(target, source)
    t_scan = time.perf_counter()
    if plan is None:
        plan, plan_label = _default_plan(target, touchpoints, seed if seed is not None else 0)
    if seed is not None:
        plan = replace(plan, seed=seed)
    limits = limits or Limits(cpu_seconds=math.ceil(timeout) + 1)
    t_plan = time.perf_counter()
    runs = tuple(
        _one_run(
            target, plan, args, timeout, limits, plan.seed, allow_network or plan.network == "allow"
        )
        for _ in range(repeat)
    )
    t_runs = time.perf_counter()
    accesses: list[Access] = []
    for run in runs:
        accesses += [a for a in run.accesses if a not in accesses]
    first = runs[0]
    diff = _first_divergence(runs) if repeat > 1 else ""
    return RunReport(
        file=str(path),
        exit_code=first.exit_code,
        status=first.status,
        stdout=first.stdout,
        stderr=first.stderr,
        touchpoints=touchpoints,
        accesses=tuple(accesses),
        unmocked=tuple(a for a in accesses if not a.mocked),
        layers=first.layers,
        runs=runs,
        deterministic=(not diff) if repeat > 1 else None,
        diff=diff,
        timings={
            "scan": t_scan - t0,
            "plan": t_plan - t_scan,
            "runs": t_runs - t_plan,
            "total": t_runs - t0,
        },
        seed=plan.seed,
        plan=plan_label,
        detail=first.detail,
    )


def run_source(source: str, plan: Plan | None = None, **kwargs: Any) -> RunReport:
    """Like :func:`run_file` for source text (written to a temp ``program.py``)."""
    with tempfile.TemporaryDirectory(prefix="automock-src-") as tmp:
        target = Path(tmp) / "program.py"
        target.write_text(source, encoding="utf-8")
        report = run_file(target, plan, **kwargs)
    return replace(report, file="<string>")
