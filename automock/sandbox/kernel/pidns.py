"""The PID-namespace layer: become init of a new PID namespace, and die with the sandbox's parent.

:func:`pid_namespace` unshares ``CLONE_NEWPID`` and forks: the original
process (the *intermediate*, outside the namespace) only waits and exits
exactly as its child did; the child is init (pid 1) of the namespace, so
when it ends the kernel kills every descendant, daemons included. Init gets
``PR_SET_PDEATHSIG`` (SIGKILL when the intermediate dies) and, since that
only covers deaths after it is armed and ``getppid()`` is 0 for init, also
checks a pipe the intermediate holds open (:func:`die_if_orphaned`), again
after a uid change re-arms the signal (:func:`rearm_after_uid_change`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

from automock.sandbox.kernel.layers import LayerStatus
from automock.sandbox.kernel.syscalls import (
    CLONE_NEWPID,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    PR_SET_PDEATHSIG,
    mount,
    prctl,
    reason,
    unshare,
)

__all__ = ["die_if_orphaned", "pid_namespace", "rearm_after_uid_change"]

_intermediate_alive = -1  # read end of a pipe whose writer is the process we would die with


def die_if_orphaned(*, close: bool = False) -> None:
    """Exit if the intermediate (our parent, outside the namespace) is already gone.

    ``PR_SET_PDEATHSIG`` only covers a parent death after it is armed, and
    ``getppid()`` is 0 for init of a namespace; the pipe the intermediate holds
    open tells instead: once it has died, the read end is at end of file.
    """
    global _intermediate_alive
    fd = _intermediate_alive
    if fd < 0:
        return
    import select

    gone = bool(select.select([fd], [], [], 0)[0])
    if close or gone:
        os.close(fd)
        _intermediate_alive = -1
    if gone:
        os._exit(1)


def pid_namespace(mount_proc: bool) -> LayerStatus:
    """Become init of a new PID namespace: fork; the parent mirrors the child's exit."""
    try:
        unshare(CLONE_NEWPID)
    except OSError as exc:
        return LayerStatus("pid", False, f"unshare(CLONE_NEWPID) refused ({reason(exc)})")
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    alive_r, alive_w = os.pipe()  # the intermediate holds alive_w until it dies
    child = os.fork()
    if child:  # the intermediate: wait, then exit exactly like the child did
        os.close(alive_r)
        while True:
            try:
                _, status = os.waitpid(child, 0)
                break
            except ChildProcessError:
                os._exit(1)
            except InterruptedError:  # pragma: no cover - PEP 475 retries
                continue
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            with contextlib.suppress(OSError, ValueError):  # SIGKILL/SIGSTOP cannot be reset
                signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
            os.kill(os.getpid(), sig)
            os._exit(128 + sig)  # a signal that does not terminate: say which in the code
        os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)
    os.close(alive_w)
    global _intermediate_alive
    _intermediate_alive = alive_r
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    die_if_orphaned()  # it may have died before prctl took effect
    detail = "init of a new PID namespace: every descendant dies with it"
    if mount_proc:
        try:
            mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
            detail += "; private /proc"
        except OSError as exc:
            detail += f"; host /proc still visible ({reason(exc)})"
    return LayerStatus("pid", True, detail)


def rearm_after_uid_change() -> None:
    """In init of a namespace :func:`pid_namespace` made: arm ``PR_SET_PDEATHSIG`` again.

    A uid change clears it; the pipe check covers a death before it was re-armed.
    Elsewhere (no namespace made by this process) it does nothing.
    """
    if _intermediate_alive < 0:
        return
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    die_if_orphaned(close=True)
