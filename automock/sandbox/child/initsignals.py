"""Signals that end a normal process, made to end a program that runs as init of its PID namespace.

The kernel delivers no signal to init of a PID namespace from inside that
namespace unless init has a handler for it. A sandboxed program runs as
that init (see :mod:`automock.sandbox.kernel.pidns`), so ``os.kill(os.getpid(),
SIGTERM)``, ``signal.alarm`` or the CPU limit's ``SIGXCPU`` would do nothing
to it, where ``python FILE`` dies of them. :func:`die_as_usual` installs a
handler for each such signal still at its default action; the handler ends
the process as the signal would have, through ``report(signum)``, which
writes the run's or the candidate's verdict and exits.

A process the program forks (``os.fork``, multiprocessing's ``fork`` workers) is
not init and gets the default action back, as under ``python FILE``: the thread
that forks blocks these signals until the fork is over, and the child puts the
default action back before it unblocks them (:func:`_keep_across_forks`). A
handler left in such a child ended it only when Python got to run it, so it
could miss a signal: CPython forgets one caught before ``PyOS_AfterFork_Child``
(a child sent ``SIGTERM`` before it first ran: ``Pool.terminate`` right after
``Pool(2)`` forked a worker the OS had not scheduled yet), and one caught just
before a blocking call is taken only when that call returns (a pool worker
about to wait on the task queue's lock, which ``terminate`` holds). The worker
lived on, and the pool's ``join`` waited for it until the run's timeout. A
signal sent meanwhile stays pending and kills the child once unblocked. The
handler still restores the default action and raises the signal again in a
process that is not init (forked without the hooks, as by ``ctypes``).

``SIGKILL`` and faults (``SIGSEGV`` and friends, raised by the kernel) are
delivered to init anyway; ``SIGINT`` is Python's ``KeyboardInterrupt``.
"""

from __future__ import annotations

import _thread
import contextlib
import os
import signal
from collections.abc import Callable

__all__ = ["DEADLY", "die_as_usual"]

_guarded: dict[int, object] = {}  # signal -> the handler die_as_usual installed for it here
_masks: dict[int, set[int]] = {}  # a forking thread's mask before its fork, by thread ident
_hooks_registered = False

# default action "terminate" (or "core") and not already handled by CPython
DEADLY = (
    "SIGTERM",
    "SIGHUP",
    "SIGQUIT",
    "SIGALRM",
    "SIGUSR1",
    "SIGUSR2",
    "SIGXCPU",
    "SIGVTALRM",
    "SIGPROF",
)


def die_as_usual(report: Callable[[int], object]) -> None:
    """As init, die of the :data:`DEADLY` signals: ``report(signum)`` must end the process."""

    def die(signum: int, frame: object) -> None:
        if os.getpid() != 1:  # a process the program forked: plain default behaviour
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        report(signum)
        os._exit(128 + signum)  # should report return

    for name in DEADLY:
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) == signal.SIG_DFL:
            signal.signal(sig, die)
            _guarded[sig] = die
    _keep_across_forks()


def _block_for_fork() -> None:
    if _guarded:
        _masks[_thread.get_ident()] = set(signal.pthread_sigmask(signal.SIG_BLOCK, _guarded))


def _unblock_after_fork() -> None:
    mask = _masks.pop(_thread.get_ident(), None)
    if mask is not None:  # as the thread had it: a signal it blocked itself stays blocked
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _default_in_child() -> None:
    """Not init: each signal whose handler is still ours dies by default, as in ``python FILE``
    (before it is unblocked: one sent since the fork kills the child then)."""
    for sig, handler in _guarded.items():
        if signal.getsignal(sig) is handler:
            with contextlib.suppress(ValueError, OSError):
                signal.signal(sig, signal.SIG_DFL)
    _guarded.clear()
    _unblock_after_fork()
    _masks.clear()  # other threads' forks in flight: not this process's (it has one thread)


def _keep_across_forks() -> None:
    """Block the guarded signals in the thread that forks until the fork is over, on both
    sides, and give the child the default actions (module docstring). Registered once per
    process; two threads may fork at once: each keeps its own mask."""
    global _hooks_registered
    if _hooks_registered:
        return
    _hooks_registered = True
    os.register_at_fork(
        before=_block_for_fork,
        after_in_parent=_unblock_after_fork,
        after_in_child=_default_in_child,
    )
