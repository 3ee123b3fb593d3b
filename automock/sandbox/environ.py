"""Make this process's environment exactly a given one, as a fresh interpreter's would be.

Every sandboxed program gets a fixed environment and nothing of its parent's.
A spawned interpreter gets it from ``exec``; a forked child (the ``automock
run`` fork path, the batch zygote and its candidates) has to replace the one it
inherited, in three places a program can read it from:

- ``os.environ`` and the C environment (``getenv`` in an extension module,
  what a subprocess inherits): cleared and refilled;
- the time zone: ``TZ`` is read again (``tzset``), so ``time.localtime`` and
  ``time.tzname`` follow the new value, not the parent's;
- ``/proc/<pid>/environ``, which shows the block the process was exec'd with:
  overwritten in place when asked (``proc=True``). The block cannot grow, so
  a parent forks only when :func:`fits` says the child's environment fits
  (``automock run`` reserves room when it restarts, see
  :mod:`automock.commands._hashseed`); should it not fit, it is blanked, never
  left showing the parent's variables.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

__all__ = ["become", "fits"]


def become(env: Mapping[str, str], *, proc: bool = False) -> None:
    """Replace this process's environment with exactly ``env`` (see the module docstring)."""
    if proc:
        from automock.sandbox._syscalls import _libc

        _libc().clearenv()  # also what C code set behind os.environ's back
    os.environ.clear()
    os.environ.update(env)
    if hasattr(time, "tzset"):
        time.tzset()
    if proc:
        _overwrite_block(env)


def fits(env: Mapping[str, str]) -> bool:
    """Can :func:`become` with ``proc=True`` show exactly ``env`` in ``/proc/self/environ``?"""
    area = _area()
    return area is not None and len(_block(env)) <= area[1] - area[0]


def _area() -> tuple[int, int] | None:
    """Start and end address of the block ``/proc/self/environ`` shows, if readable."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return int(fields[47]), int(fields[48])
    except (OSError, IndexError, ValueError):
        return None


def _block(env: Mapping[str, str]) -> bytes:
    return b"".join(f"{k}={v}".encode() + b"\0" for k, v in env.items())


def _overwrite_block(env: Mapping[str, str]) -> None:
    area = _area()
    if area is None or area[1] <= area[0]:
        return
    import ctypes

    start, size = area[0], area[1] - area[0]
    block = _block(env)
    data = block if len(block) <= size else b""
    ctypes.memmove(start, data, len(data))
    ctypes.memset(start + len(data), 0, size - len(data))
