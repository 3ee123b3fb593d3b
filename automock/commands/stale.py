"""What makes a warm server stale: a change to anything its imports could read.

The server (:mod:`automock.commands.serve`) stamps automock's source files, every
directory on ``sys.path`` and the interpreter when it starts, and compares the stamp
at each connection: a changed file, an entry added to or removed from such a
directory (a package installed or removed) means a fresh process would import
something else, so the server refuses the connection and ends.
"""

from __future__ import annotations

import os
import stat
import sys

__all__ = ["changed", "stamp", "watched"]


def watched() -> list[str]:
    """automock's source files and directories, every directory on ``sys.path`` (a package
    installed or removed changes it) and the interpreter: what a stale server would miss."""
    import automock

    package = os.path.dirname(os.path.abspath(automock.__file__))
    paths = [sys.executable, *(p for p in sys.path if p)]
    for top, dirs, files in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        paths += [top, *(os.path.join(top, name) for name in files if name.endswith(".py"))]
    return paths


def stamp(paths: list[str]) -> list[object]:
    """What could change an import at each of ``paths``: a file's (mtime, size); a directory's
    entries by name, less ``__pycache__`` and dot-names (its mtime moves when a fresh checkout
    writes ``__pycache__`` or tests add ``.hypothesis``: no import changes); None: gone."""
    found: list[object] = []
    for path in paths:
        try:
            info = os.stat(path)
            if stat.S_ISDIR(info.st_mode):
                names = os.listdir(path)
                found.append(sorted(n for n in names if not n.startswith((".", "__pycache__"))))
            else:
                found.append((info.st_mtime_ns, info.st_size))
        except OSError:
            found.append(None)
    return found


def changed(paths: list[str], before: list[object]) -> str | None:
    """The first of ``paths`` whose stamp is no longer ``before``'s, or None."""
    now = stamp(paths)
    return next((p for p, a, b in zip(paths, before, now, strict=True) if a != b), None)
