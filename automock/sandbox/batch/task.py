"""The child side of a batch run: what one forked child does with one candidate.

:func:`child_main` runs in a freshly forked child and never returns: it wires
stdin/stdout/stderr, enters the sandbox (:func:`~automock.sandbox.kernel.isolation.enter_isolation`:
new network namespace, rlimits, unprivileged uid, new session), makes its own
working directory, applies the plan with ``deterministic(plan, seed=...)``,
runs the candidate and writes a one-line JSON verdict to the result pipe.

The verdict is the child's word, which the parent weighs against what it saw
(:mod:`automock.sandbox.judge`); :attr:`CandidateResult.status` is a
:class:`~automock.sandbox.child.status.Status`.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import marshal
import os
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii as _quote
from typing import TYPE_CHECKING, Any, NoReturn

from automock._serialize import JsonMixin
from automock.errors import EXIT_MEMORY
from automock.sandbox.child.candidate import Candidate
from automock.sandbox.child.status import Status, exit_code_for, signal_status
from automock.sandbox.child.trusted import pack
from automock.sandbox.kernel.nullin import empty_stdin

if TYPE_CHECKING:
    from automock.plan.model import Plan
    from automock.sandbox.kernel.isolation import Limits


__all__ = [
    "BatchSettings",
    "CandidateResult",
    "child_main",
    "default_limits",
    "encode_task",
    "encode_verdict",
    "failed_verdict",
    "load_prctl",
    "receive",
    "report_and_exit",
    "sample_seed",
    "scrub_environment",
    "send_code",
    "set_pdeathsig",
    "signal_death",
]

PR_SET_PDEATHSIG = 1
_SIGKILL = int(signal.SIGKILL)  # a plain int: no enum member to look up in a fresh child
_RESULT_LIMIT = 64 * 1024
RESULT_FD = 3  # where a child writes its verdict (stdout, stderr are 1, 2)


@dataclass(frozen=True, slots=True)
class CandidateResult(JsonMixin):
    """The verdict for one candidate (one JSON line of ``automock batch``)."""

    task_id: str
    index: int
    status: Status
    exit_code: int | None
    stdout: str = ""
    stderr: str = ""
    duration_ms: float = 0.0
    layers: tuple[Any, ...] = ()
    detail: str = ""
    seed: int | None = None  # the sample's own seed (:func:`sample_seed`)

    @property
    def passed(self) -> bool:
        return self.status == "passed"


def sample_seed(batch_seed: int, task_id: str, index: int) -> int:
    """The seed sample ``index`` of ``task_id`` runs under in a batch seeded ``batch_seed``.

    Derived (SHA-256) from the three, so it is the same in every run whatever
    the worker count or completion order, and differs between two identical
    samples of a task. The parent computes it for the result; the child for
    :func:`~automock.runtime.entropy.reseed` once it has its candidate.
    """
    from automock._seed import derive

    return derive(batch_seed, "sample", str(task_id), int(index))


@dataclass(frozen=True, slots=True)
class BatchSettings:
    """How every candidate of a batch runs (picklable, so Ray can ship it)."""

    timeout: float = 10.0
    seed: int = 0
    plan: Plan | None = None  # the default plan when None
    limits: Limits | None = None  # the default limits when None
    allow_network: bool = False
    output_bytes: int = 64 * 1024
    preload: tuple[str, ...] = field(default=())
    auto_preload: bool = True
    # children kept isolated and waiting for their candidate (None: one per worker; 0: none)
    spares: int | None = None
    prepared_namespace: bool = True  # share one read-only mount namespace (see mountns)
    zygote: bool = True  # fork children from a process with the runtime entered (see zygote)
    readable: tuple[str, ...] = ()  # extra paths candidates may read (absolute; see landlock)
    # paths candidates never see (the batch's inputs, benchmark data): see batch/hidden.py
    hidden: tuple[str, ...] = ()
    # a new network namespace per candidate, sockets allowed in it, instead of its lane's
    # empty one kept while no socket can be made in it (see batch/lanenets.py)
    fresh_network: bool = False


def signal_death(verdict: dict[str, Any], signum: int, *, me: int) -> NoReturn:
    """End the candidate as signal ``signum`` would have (it runs as init; see
    :mod:`automock.sandbox.child.initsignals`): the verdict a death by it gets, exit 128 + N."""
    status, detail = signal_status(signum)
    verdict.update(status=status, exit_code=exit_code_for(status, -signum), detail=detail)
    report_and_exit(verdict, 128 + signum, me=me)


def set_pdeathsig(prctl: Callable[..., int] | None) -> None:
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, _SIGKILL, 0, 0, 0)


def load_prctl() -> Callable[..., int] | None:
    """``prctl`` from libc, looked up once in the parent (None off Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl: Callable[..., int] = libc.prctl
        return prctl
    except (OSError, AttributeError):
        return None


def default_limits() -> Any:
    from automock.sandbox.kernel.isolation import Limits

    return Limits()


def encode_verdict(verdict: Mapping[str, Any]) -> bytes:
    """The one-line JSON verdict, built by hand from ``status``, ``exit_code``, ``detail`` and
    ``layers`` (LayerStatus objects): ``json.dumps``'s first call in a fresh child touches
    (copies) far more of the parent's memory than these few C-level string escapes."""
    layers = ",".join(
        f'{{"name": {_quote(x.name)}, "active": {"true" if x.active else "false"}, '
        f'"detail": {_quote(x.detail)}}}'
        for x in verdict["layers"]
    )
    return (
        f'{{"status": {_quote(verdict["status"])}, "exit_code": {int(verdict["exit_code"]):d}, '
        f'"detail": {_quote(verdict["detail"])}, "layers": [{layers}]}}'
    ).encode()


def report_and_exit(verdict: Mapping[str, Any], code: int, *, me: int) -> NoReturn:
    """Flush the candidate's output, write the verdict on fd 3, close the pipes, exit with ``code``.

    A process the candidate forked (``os.getpid() != me``) just exits: no verdict.
    """
    if os.getpid() != me:
        os._exit(1)
    # the candidate may have replaced sys.stdout: flush ours and theirs
    ours = (sys.__stdout__, sys.__stderr__)
    for stream in (sys.stdout, sys.stderr, *(s for s in ours if s not in (sys.stdout, sys.stderr))):
        with contextlib.suppress(BaseException):
            stream.flush()  # type: ignore[union-attr]
    with contextlib.suppress(BaseException):
        os.write(RESULT_FD, encode_verdict(verdict)[:_RESULT_LIMIT])
    # close the pipes now: the parent sees EOF before the kernel tears down
    # this process's memory and namespaces, which need not delay the result
    os.closerange(0, RESULT_FD + 1)
    os._exit(code if code >= 0 else 128 - code)  # -N: as for a death by signal N


def failed_verdict(verdict: dict[str, Any], exc: BaseException) -> int:
    """Record in ``verdict`` that the sandbox itself failed with ``exc``; the exit code to use."""
    if isinstance(exc, MemoryError):
        verdict.update(status="memory", exit_code=EXIT_MEMORY, detail="MemoryError")
        return EXIT_MEMORY
    verdict.update(status="error", detail=f"automock: {type(exc).__name__}: {exc}")
    return 1


def child_main(
    candidate: Candidate | None,
    settings: BatchSettings,
    *,
    out_fd: int,
    err_fd: int,
    result_fd: int,
    task_fd: int | None = None,
    pool_dir: str,
    parent_pid: int,
    prctl: Callable[..., int] | None,
    mnt_fd: int | None = None,
    pid_init: bool = False,
    uid: int | None = None,
) -> NoReturn:
    """Run ``candidate`` in this freshly forked child, report on ``result_fd``, exit.

    With ``candidate=None`` the child gets ready (isolation, environment,
    runtime) and then reads its candidate from ``task_fd``: a spare
    the pool prepares while other candidates run. EOF instead of a candidate
    means the spare is not needed; it exits quietly. (A child forked by the
    pool's zygote takes :func:`automock.sandbox.batch.zygote_child.run` instead.)
    """
    verdict: dict[str, Any] = {"status": "error", "exit_code": 1, "detail": "", "layers": ()}
    code = 1
    me = os.getpid()
    try:
        set_pdeathsig(prctl)
        if os.getppid() not in (parent_pid, 0):  # the parent died before we armed the signal
            os._exit(1)
        # lift every fd we keep above the range we are about to overwrite
        keep = [empty_stdin(), out_fd, err_fd, result_fd]
        keep += [fd for fd in (mnt_fd, task_fd) if fd is not None]
        lifted = [fcntl.fcntl(fd, fcntl.F_DUPFD, 64) for fd in keep]
        for target, fd in enumerate(lifted):
            os.dup2(fd, target)
        os.closerange(len(lifted), 65536)  # other candidates' pipes, the parent's files
        mnt_fd = 4 if mnt_fd is not None else None
        if task_fd is not None:
            task_fd = len(lifted) - 1
        from automock.sandbox.child import fresh

        fresh.install_stdio(fresh.stdio())
        from automock.sandbox.kernel.isolation import SANDBOX_UID, enter_isolation

        limits = settings.limits if settings.limits is not None else default_limits()
        if mnt_fd is not None:
            from automock.sandbox.kernel.mountns import join_prepared

            layers = join_prepared(
                mnt_fd,
                limits,
                allow_network=settings.allow_network,
                pid_init=pid_init,
                uid=SANDBOX_UID if uid is None else uid,
                readable=settings.readable,
                hidden=settings.hidden,
            )
            os.close(mnt_fd)
        else:
            workdir = os.path.join(pool_dir, f"c{os.getpid()}")  # the parent removes it
            os.mkdir(workdir, 0o700)
            layers = enter_isolation(
                limits,
                allow_network=settings.allow_network,
                workdir=workdir,
                uid=SANDBOX_UID if uid is None else uid,
                readable=settings.readable,
                hidden=settings.hidden,
            )
        me = os.getpid()  # the PID-namespace layer continues in a new process
        verdict["layers"] = layers
        set_pdeathsig(prctl)  # a uid change clears it; arm it again
        if me == 1:  # init of its PID namespace: die of SIGTERM & co. as python FILE would
            from automock.sandbox.child.initsignals import die_as_usual

            die_as_usual(lambda signum: signal_death(verdict, signum, me=1))
        scrub_environment(settings.seed)
        verdict.update(_run_deterministic(candidate, settings, task_fd))
        code = exit_code_for(verdict["status"], int(verdict["exit_code"]))
    except BaseException as exc:
        code = failed_verdict(verdict, exc)
    finally:
        report_and_exit(verdict, code, me=me)


def scrub_environment(seed: int) -> None:
    """The same fixed environment ``automock run`` gives a program; nothing inherited."""
    root = os.getcwd()
    for sub in ("home", "tmp"):
        with contextlib.suppress(OSError):
            os.mkdir(os.path.join(root, sub), 0o700)
    from automock.sandbox.child import fresh
    from automock.sandbox.kernel.environment import candidate_environment

    fresh.environment(candidate_environment(root, seed))


def encode_task(candidate: Candidate, *, code_sent: bool = False) -> bytes:
    """How the pool hands a candidate to its child: a length, the candidate without its tests
    (``marshal``: no classes to look up), then the tests (their text, and the tests and
    prompt compiled once per problem: :func:`automock.sandbox.child.trusted.pack`), which a
    pair's test process reads only after it forked the candidate's process
    (:mod:`automock.sandbox.child.pair`): the candidate's process never holds the tests,
    not even in freed memory. ``code_sent``: its candidate's process forked ahead got its
    code (:func:`send_code`); else the test process forks one for it."""
    c = candidate
    pair = c.test is not None
    fields = (c.task_id, c.index, c.code, pair, c.entry_point, c.source, c.prompt, code_sent)
    head = marshal.dumps(fields)
    tail = pack(c.task_id, c.test, c.prompt) if c.test is not None else b""
    return len(head).to_bytes(4, "big") + head + tail


def _read_exactly(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size and (chunk := os.read(fd, size)):
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def send_code(code_fd: int, candidate: Candidate, batch_seed: int) -> bool:
    """Send a pair's code and sample seed to its candidate's process forked ahead, on its code
    pipe from the pool (:mod:`automock.sandbox.child.candidate_process`): it loads while its
    test process wakes and reads the tests. False if it cannot take it (then the test process
    forks one for the candidate: :func:`encode_task`'s ``code_sent``)."""
    from automock.sandbox.child.channel import MAX_FRAME, encode, write_frame

    seed = sample_seed(batch_seed, candidate.task_id, candidate.index)
    payload = encode(("load", candidate.code, candidate.source, seed))
    if len(payload) > MAX_FRAME:
        return False
    try:
        write_frame(code_fd, payload)
    except OSError:
        return False
    return True


def receive(task_fd: int) -> tuple[Candidate, int | None, bool]:
    """Read the candidate the pool sends on ``task_fd``; exit quietly on EOF (spare not needed).

    For a pair, the tests are still in the pipe: the candidate comes back with ``test=""``
    and ``task_fd`` open, to be read by :func:`automock.sandbox.child.pair.run_pair`; and
    whether its candidate's process forked ahead was sent the code (:func:`send_code`).
    """
    head = _read_exactly(task_fd, 4)
    if len(head) < 4:  # the pool did not need this spare
        os._exit(0)
    fields = marshal.loads(_read_exactly(task_fd, int.from_bytes(head, "big")))
    task_id, index, code, pair, entry_point, source, prompt, code_sent = fields
    candidate = Candidate(task_id, index, code, "" if pair else None, entry_point, source, prompt)
    if not pair:
        os.close(task_fd)
        return candidate, None, False
    return candidate, task_fd, bool(code_sent)


def _run_deterministic(
    candidate: Candidate | None,
    settings: BatchSettings,
    task_fd: int | None = None,
) -> Mapping[str, Any]:
    from automock.plan.model import Plan
    from automock.runtime import deterministic

    plan = settings.plan if settings.plan is not None else Plan()
    with deterministic(plan, seed=settings.seed):
        tests_fd = None
        if candidate is None:
            assert task_fd is not None
            candidate, tests_fd, _ = receive(task_fd)
        from automock.runtime.entropy import reseed
        from automock.sandbox.child.candidate import run_candidate

        reseed(sample_seed(settings.seed, candidate.task_id, candidate.index))

        status, exit_code, detail = run_candidate(candidate, tests_fd)
    return {"status": status, "exit_code": exit_code, "detail": detail}
