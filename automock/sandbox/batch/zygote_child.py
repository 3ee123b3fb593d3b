"""A child of the pool's zygote: only the per-candidate steps run after the fork.

After ``fork()`` every page the child writes is copied from the zygote (a
page fault each), so the cheapest child is the one that touches the fewest
of the zygote's objects. The zygote therefore builds, once, a
:class:`Template` of what every child would otherwise build for itself:
the stdio objects over fds 0-2, libc's function objects, the limits. It
also keeps its own fds 0-4 occupied, so the four pipe ends it receives for
a child are always above 4 and the child moves them into place with four
``dup2`` calls. And it forks with libc's ``fork()`` (:func:`raw_fork`)
rather than ``os.fork()``: a single-threaded zygote needs none of Python's
at-fork bookkeeping, whose hooks (``threading``'s, ``random``'s reseed
that the child would only undo) copied ~190 pages per child.

:func:`run` is then what is left: move the pipe ends, enter the
per-candidate layers (:func:`~automock.sandbox.kernel.mountns.join_prepared`),
read the candidate, re-seed the runtime with the sample's own seed
(:func:`~automock.sandbox.batch.task.sample_seed`), run it, report. The runtime was entered by the zygote
and is left by the child's exit.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from automock.runtime.entropy import reseed
from automock.sandbox.batch.task import (
    RESULT_FD,
    BatchSettings,
    default_limits,
    failed_verdict,
    receive,
    report_and_exit,
    sample_seed,
    set_pdeathsig,
    signal_death,
)
from automock.sandbox.child import candidate_process
from automock.sandbox.child.candidate import fork_ahead, run_candidate
from automock.sandbox.child.fresh import Stdio, install_stdio, stdio
from automock.sandbox.child.initsignals import die_as_usual
from automock.sandbox.child.status import exit_code_for
from automock.sandbox.kernel import syscalls
from automock.sandbox.kernel.isolation import VIRTUAL_ROOT, warm_isolation
from automock.sandbox.kernel.landlock import prepared_fds
from automock.sandbox.kernel.landlock import release as release_rules
from automock.sandbox.kernel.mountns import join_prepared
from automock.sandbox.kernel.netns import join as join_network
from automock.sandbox.kernel.nullin import empty_stdin

__all__ = ["Template", "run"]

_LOW_FDS = 5  # 0: /dev/null, 1-2: stdout/stderr, 3: verdict, 4: task
_PIPES = 4  # the child's pipe ends among the fds it is given (then its cgroup's files)
_HOME_TMP = (f"{VIRTUAL_ROOT}/home", f"{VIRTUAL_ROOT}/tmp")  # as task.scrub_environment makes


@dataclass(frozen=True, slots=True)
class Template:
    """What every child of one zygote starts from (built once, in the zygote)."""

    settings: BatchSettings
    limits: Any  # automock.sandbox.kernel.isolation.Limits
    stdio: Stdio
    prctl: Callable[..., int] | None
    # the zygote's own stdio objects: referenced here, replacing them in a child does not
    # free them (freeing touches, and so copies, every page they span)
    previous: tuple[Any, ...]
    keep: tuple[int, ...]  # fds (above 4) a child keeps: the Landlock rules' paths
    clock: Any = None  # the time layer of the namespace the zygote forks children into

    @classmethod
    def build(
        cls, settings: BatchSettings, prctl: Callable[..., int] | None, clock: Any = None
    ) -> Template:
        """Call in the zygote, after it dropped every fd it does not need; ``clock``: the
        ``time`` layer of the namespace it forks its children into (None: none)."""
        streams = _occupy_low_fds()
        # resolve libc's functions now: CDLL caches each on first use, in the child a copy
        libc = syscalls.libc()
        for name in ("unshare", "mount", "prctl", "setns", "syscall", "sethostname"):
            getattr(libc, name, None)
        candidate_process.warm()  # and fork, for each pair's candidate's process
        limits = settings.limits if settings.limits is not None else default_limits()
        # the paths of the Landlock rules, opened once: each child keeps these fds (and
        # closes them once it restricted itself), instead of ~25 opens and stats of its own
        warm_isolation(None, settings.readable, landlock_low=_LOW_FDS)
        previous = (
            sys.stdin,
            sys.stdout,
            sys.stderr,
            sys.__stdin__,
            sys.__stdout__,
            sys.__stderr__,
        )
        return cls(settings, limits, streams, prctl, previous, prepared_fds(), clock)


def _join_lane_cgroup(fds: Sequence[int], network: bool) -> None:
    """Move this process into its lane's cgroup: the move waits for the kernel (~1 ms),
    here while other candidates run rather than in the pool's loop. ``fds``: the cgroup's
    ``cgroup.procs`` files, then with ``network`` the lane's empty network namespace, joined
    first (a child the pool sees in its cgroup is in its namespace too)."""
    if network:
        join_network(fds[-1])
    for fd in fds[: len(fds) - network]:
        try:  # noqa: SIM105 - contextlib.suppress would touch (copy) more of the zygote
            os.write(fd, b"0")
        except OSError:
            pass  # the pool sees it is not in, and moves it itself


def _take_fds(pipes: Sequence[int], keep: Sequence[int]) -> None:
    """Move the pipe ends to 1-4; close every other fd above 4 except ``keep`` (sorted):
    other children's pipes, the zygote's socket."""
    for target, fd in enumerate(pipes, 1):
        os.dup2(fd, target)
    low = _LOW_FDS
    for fd in keep:
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 65536)


def _make_home_tmp() -> None:
    """The zygote fixed the environment; its HOME and TMPDIR, in this child's own /tmp."""
    for path in _HOME_TMP:
        try:  # noqa: SIM105 - contextlib.suppress would touch (copy) more of the zygote
            os.mkdir(path, 0o700)
        except OSError:
            pass


def _occupy_low_fds() -> Stdio:
    """Fds 0-4 of the zygote: /dev/null and a dead pipe; the stdio objects over 0-2.

    With 0-4 taken, every fd the zygote receives is 5 or above, so a child
    can ``dup2`` its pipe ends to 1-4 in any order without clobbering one.
    The stdio objects see a pipe on 1-2 and /dev/null on 0, as a child does.
    """
    null = empty_stdin()
    r, w = os.pipe()
    for target, fd in ((0, null), (1, w), (2, w), (3, null), (4, null)):
        if target != fd:
            os.dup2(fd, target)
    for fd in {null, r, w} - set(range(_LOW_FDS)):
        os.close(fd)
    return stdio()


def run(
    template: Template,
    fds: Sequence[int],
    *,
    uid: int,
    pid_init: bool,
    zygote: int,
    pair: bool = False,
    rehearse: bool = True,
    network: bool = False,
) -> NoReturn:
    """In a child just forked by the zygote: get ready, read the candidate, run it, report.

    ``fds``: the child's ends of its stdout, stderr, verdict and task pipes (all above 4),
    for a ``pair`` its candidate's code pipe, then its lane's (:func:`_join_lane_cgroup`:
    joined first; the pool checks the child is in before it sends the candidate);
    ``pid_init``: forked as init of a new PID namespace; ``pair``: the pool expects a (code,
    tests) pair: the candidate's process is forked ahead (:func:`fork_ahead`), and the pool
    sends it its code on that pipe."""
    verdict: dict[str, Any] = {"status": "error", "exit_code": 1, "detail": "", "layers": ()}
    code = 1
    me = os.getpid()
    try:
        set_pdeathsig(template.prctl)
        if os.getppid() not in (zygote, 0):  # the zygote died before we armed the signal
            os._exit(1)
        pipes = _PIPES + (1 if pair else 0)  # a pair's: and its candidate's code pipe
        _join_lane_cgroup(fds[pipes:], network)
        _take_fds(fds[:_PIPES], sorted((*template.keep, *fds[_PIPES:pipes])))
        install_stdio(template.stdio)
        settings = template.settings
        verdict["layers"] = join_prepared(
            None,
            template.limits,
            allow_network=settings.allow_network,
            pid_init=pid_init,
            uid=uid,
            readable=settings.readable,
            hidden=settings.hidden,
            clock=template.clock,
        )
        release_rules()  # used and closed by the landlock layer: never the program's
        me = os.getpid()  # without pid_init the PID-namespace layer continues in a new process
        set_pdeathsig(template.prctl)  # the uid change cleared it; arm it again
        if me == 1:  # init of its PID namespace: die of SIGTERM & co. as python FILE would
            die_as_usual(lambda signum: signal_death(verdict, signum, me=1))
        _make_home_tmp()
        ahead = fork_ahead(RESULT_FD + 1, fds[_PIPES], rehearse=rehearse) if pair else None
        candidate, tests_fd, code_sent = receive(RESULT_FD + 1)
        if ahead is not None and candidate.test is not None and not code_sent:
            ahead.discard()  # its code could not be sent: one is forked for the candidate
            ahead = None
        reseed(sample_seed(settings.seed, candidate.task_id, candidate.index))  # its own seed
        status, exit_code, detail = run_candidate(candidate, tests_fd, ahead)
        verdict.update(status=status, exit_code=exit_code, detail=detail)
        code = exit_code_for(status, exit_code)
    except BaseException as exc:
        code = failed_verdict(verdict, exc)
    finally:
        report_and_exit(verdict, code, me=me)
