"""Address-stable runs: every run of a program starts from the same address layout.

A default repr (``<Foo object at 0x7f...>``), ``id()``, ``hash(object())`` and
the iteration order of a set of objects hashed by identity all follow the
addresses CPython's allocator hands out. Those repeat from run to run when

* the address layout repeats: the interpreter is exec'd with the
  ``ADDR_NO_RANDOMIZE`` personality (ASLR off for that process and its
  descendants; the kernel clears it again on a set-uid exec), and
* the allocation history repeats: a fresh interpreter per run, whose start-up
  sees the same argument and environment sizes (numbers in its command line
  are padded to :data:`WIDTH` digits, the workdir's name has a fixed length),
  rather than a fork of a process whose past differs from run to run, and whose own work
  before the program allocates the same whatever the moment: the parent's pipes at fixed fd
  numbers (:func:`automock.sandbox.child.spec_pipe.settle`), host files whose contents change
  (``/proc/stat``) read through a fixed buffer, never made into rows
  (:mod:`automock.sandbox.kernel.hostfacts`).

:func:`fixed_layout` sets the personality on the calling thread only (Linux
keeps it per task and a forked child copies it from the thread that forks),
for the duration of a ``subprocess.Popen``, so nothing else of the caller
changes. Turning ASLR off for the sandboxed program weakens nothing the
sandbox relies on: the program is the untrusted party, and what it could gain
by knowing its own addresses it could read from ``/proc/self/maps`` anyway.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

__all__ = ["ADDR_NO_RANDOMIZE", "WIDTH", "fixed_layout", "layout_fixed", "padded"]

ADDR_NO_RANDOMIZE = 0x0040000
_QUERY = 0xFFFFFFFF
WIDTH = 10  # digits of a padded number on a child's command line (pids fit in 7)


def padded(number: int) -> str:
    """``number`` as a fixed-width decimal (``int()`` reads it back)."""
    return f"{number:0{WIDTH}d}"


def _personality(persona: int) -> int:
    import ctypes

    from automock.sandbox.kernel.syscalls import libc

    call = libc().personality
    call.restype, call.argtypes = ctypes.c_int, (ctypes.c_ulong,)
    return int(call(persona))


def layout_fixed() -> bool:
    """Does this thread (and what it execs) run with ASLR off?"""
    if not sys.platform.startswith("linux"):
        return False
    current = _personality(_QUERY)
    return current >= 0 and bool(current & ADDR_NO_RANDOMIZE)


@contextlib.contextmanager
def fixed_layout(enabled: bool = True) -> Iterator[bool]:
    """Within the block, processes this thread starts run with ASLR off; yields whether.

    ``enabled=False`` (or a kernel that refuses) yields False and changes nothing.
    """
    if not enabled or not sys.platform.startswith("linux"):
        yield False
        return
    before = _personality(_QUERY)
    if before < 0 or _personality(before | ADDR_NO_RANDOMIZE) < 0:
        yield False
        return
    try:
        yield layout_fixed()
    finally:
        _personality(before)
