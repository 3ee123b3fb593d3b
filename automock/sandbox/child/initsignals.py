"""Signals that end a normal process, made to end a program that runs as init of its PID namespace.

The kernel delivers no signal to init of a PID namespace from inside that
namespace unless init has a handler for it. A sandboxed program runs as
that init (see :mod:`automock.sandbox.kernel.pidns`), so ``os.kill(os.getpid(),
SIGTERM)``, ``signal.alarm`` or the CPU limit's ``SIGXCPU`` would do nothing
to it, where ``python FILE`` dies of them. :func:`die_as_usual` installs a
handler for each such signal still at its default action; the handler ends
the process as the signal would have, through ``report(signum)``, which
writes the run's or the candidate's verdict and exits. In a process the
program forked (not init) it restores the default action and raises the
signal again, so that process dies of it as usual.

``SIGKILL`` and faults (``SIGSEGV`` and friends, raised by the kernel) are
delivered to init anyway; ``SIGINT`` is Python's ``KeyboardInterrupt``.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

__all__ = ["DEADLY", "die_as_usual"]

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
