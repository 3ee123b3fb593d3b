"""How a spawned sandbox child's interpreter ends: as a forked run's child always has.

:mod:`automock.sandbox.run.spawn` starts each address-stable run's child with a
bootstrap that calls :func:`main` (never imported by the parent). Once the child's
``main`` has reported the run (its ``done`` message) and asks to exit, the process
does what matters of CPython's exit and ends with ``os._exit``, so the parent,
which waits for the pipes to close and for the exit status, is not kept waiting
for a full interpreter finalization (tearing down every module of the runtime
costs ~20 ms of CPU here, more than the program itself for a small file):

* threads started and ``atexit`` handlers registered after the program's own exit
  ran (:func:`automock.sandbox.child.fresh.interpreter_exit`; the program's own ran
  under the deterministic runtime, as before);
* as at interpreter exit, the garbage collector runs, then the program's module
  globals are released (their ``__del__`` methods run and print), then the collector
  runs again; each pass covers the young generations (the objects allocated since
  the collector's last full pass);
* the standard streams are flushed; the exit code is the one ``main`` exited with.

What is skipped is the teardown of the other modules (automock's, the standard
library's) and a full collection: ``__del__`` methods of the program's objects that
only those modules hold, or that are cyclic garbage old enough to sit in the oldest
generation, do not run (a forked run's child never ran any of them).
The exit status the parent judges is still the kernel's.
"""

from __future__ import annotations

import contextlib
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

__all__ = ["main"]


def _code(value: object) -> int:
    """The exit status ``sys.exit(value)`` gives (a message goes to stderr, as CPython does)."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    with contextlib.suppress(BaseException):
        print(value, file=sys.stderr)
    return 1


def main() -> NoReturn:
    """Run the sandbox child (:func:`automock.sandbox.child.program.main`), then end quickly."""
    from automock.sandbox.child.program import main as child_main

    try:
        child_main()
        code = 0
    except SystemExit as stop:
        code = _code(stop.code)
    _end(code)


def _end(code: int) -> NoReturn:
    import gc

    from automock.sandbox.child import fresh

    with contextlib.suppress(BaseException):
        fresh.interpreter_exit()
    module = sys.modules.get("__main__")
    with contextlib.suppress(BaseException):  # as CPython: garbage, then the globals, again
        gc.collect(1)  # the young generations: a full pass over the runtime's heap costs ~5 ms
        if module is not None:
            module.__dict__.clear()  # the program's globals: their __del__ run now
        gc.collect(1)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()
    os._exit(code)
