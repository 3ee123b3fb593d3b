"""The sandboxed program's stdin: ``/dev/null``, checked to be the device it claims to be.

Every sandbox entry point gives its program an empty stdin, as ``python FILE </dev/null``
does. On a broken host ``/dev/null`` can be a *regular file* (deleted and re-created by a
``> /dev/null`` redirection), which every process's discarded output then fills: a program
reading stdin would read what host processes wrote there, and a test of ``input()``
hitting end of file would pass or fail by chance. :func:`empty_stdin` opens ``/dev/null``
only if it is the character device (1, 3); otherwise it returns the read end of a pipe
whose write end is already closed, which gives end of file at once as well.
"""

from __future__ import annotations

import os
import stat

__all__ = ["empty_stdin"]

_NULL_DEVICE = os.makedev(1, 3)


def empty_stdin(path: str = os.devnull) -> int:
    """A read-only fd that is at end of file: ``path`` if it is the null device, else a pipe."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    info = os.fstat(fd)
    if stat.S_ISCHR(info.st_mode) and info.st_rdev == _NULL_DEVICE:
        return fd
    os.close(fd)
    read, write = os.pipe2(os.O_CLOEXEC)
    os.close(write)
    return read
