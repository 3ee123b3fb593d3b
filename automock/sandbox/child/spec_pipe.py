"""How a spawned sandbox child gets its spec: one pipe, two messages, fixed framing.

The parent (:func:`automock.sandbox.run.watch.finish`) writes the spec's length as
:data:`~automock.sandbox.kernel.addresses.WIDTH` digits and its JSON in one write
(:func:`spec_message`); the child (:mod:`automock.sandbox.child.program`) reads it with
:func:`read_spec` and starts isolating itself. Meanwhile the parent fills the child's workdir
if a spare's is still empty and counts the tasks of the run's own uid
(:mod:`automock.sandbox.kernel.uids`); it then writes that count, again :data:`WIDTH`
digits (:func:`tasks_message`), and closes the pipe. The child reads it
with :func:`read_tasks` at its rlimits step, before its uid drop (which takes the
workdir's files over). Fixed widths: the child makes the same reads, so the same allocations,
in every run.
"""

from __future__ import annotations

import json
import os
from typing import Any

from automock.sandbox.kernel.addresses import WIDTH, padded

__all__ = ["read_spec", "read_tasks", "settle", "spec_message", "tasks_message"]


FIRST_FD = 3  # where :func:`settle` puts the parent's pipes


def settle(fds: list[int]) -> list[int]:
    """Move the pipes the parent passed (at the numbers they had in the parent, which depend on
    what it had open when it started this child) to :data:`FIRST_FD`, :data:`FIRST_FD` + 1,
    ... (close-on-exec); return their new numbers. Every fd this process opens next takes the
    lowest free number, and paths such as ``/proc/self/fd/N`` spell it: with the same numbers,
    a run's init makes the same allocations before the program in every run (an fd 9 in one
    run and 10 in the next left the program's objects at other addresses). Unchanged if
    another fd holds one of the places."""
    import fcntl

    places = range(FIRST_FD, FIRST_FD + len(fds))
    for place in places:
        if place not in fds and _is_open(place):
            return fds
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, FIRST_FD + len(fds)) for fd in fds]
    for fd in fds:
        os.close(fd)
    for fd, place in zip(high, places, strict=True):
        os.dup2(fd, place, inheritable=False)
        os.close(fd)
    return list(places)


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def spec_message(spec: dict[str, Any]) -> bytes:
    body = json.dumps(spec).encode("utf-8")
    return padded(len(body)).encode() + body


def tasks_message(tasks: int) -> bytes:
    return padded(tasks).encode()


def _read_exactly(fd: int, size: int) -> bytes:
    """``size`` bytes from ``fd`` (a ValueError at end of file: the parent gave up)."""
    data = os.read(fd, size)  # one read: the parent writes each message with one write
    while len(data) < size:
        more = os.read(fd, size - len(data))
        if not more:
            raise ValueError("end of file")
        data += more
    return data


def read_spec(fd: int) -> dict[str, Any]:
    """The spec (a ValueError if the parent gave up before sending it); ``fd`` stays open."""
    spec: dict[str, Any] = json.loads(_read_exactly(fd, int(_read_exactly(fd, WIDTH))))
    return spec


def read_tasks(fd: int) -> int:
    """The parent's count of the run uid's tasks; ``fd`` is closed. A parent that gave up
    after the spec: this process exits (the parent kills or ignores it anyway)."""
    try:
        data = _read_exactly(fd, WIDTH)
    except (OSError, ValueError):
        os._exit(1)
    os.close(fd)
    return int(data)
