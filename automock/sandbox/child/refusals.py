"""Which call of the sandbox's seccomp filter an exception came from, when it can be told.

The filter (:mod:`automock.sandbox.kernel.seccomp`) answers ``EPERM`` (``ENOSYS``
for ``clone3``); the kernel records nothing. When such an error escapes the
program, :func:`refused_call` names the call from what the exception shows: the
standard library frame it was raised in (``socket.socket(AF_UNIX)``,
``socket.socketpair(type=SOCK_DGRAM)``, ``os.unshare``, ``os.setns``), else a
call named in the message or on the raising line of the program (ctypes calls).
A catalogue, not a trace: an error it cannot place is classified as usual.
"""

from __future__ import annotations

import errno
import linecache
import re
import socket
from types import TracebackType

from automock.sandbox.kernel import seccomp

__all__ = ["refused_call"]

# words a program's line or message may show -> the call as the report names it
_CATALOGUE = (
    ("AF_UNIX", "socket(AF_UNIX)"),
    ("io_uring", "io_uring"),
    *(
        (name, name)
        for name in (
            "add_key",
            "request_key",
            "keyctl",
            "userfaultfd",
            "perf_event_open",
            "ptrace",
            "unshare",
            "setns",
            "clone3",
            "kexec_load",
            "kexec_file_load",
            "init_module",
            "finit_module",
            "delete_module",
            "pivot_root",
            "move_mount",
            "open_tree",
            "fsopen",
            "fsmount",
            "fsconfig",
            "fspick",
            "umount2",
            "mount",
            "swapon",
            "swapoff",
            "reboot",
            "bpf",
        )
    ),
)
_WORDS = re.compile(r"\b(" + "|".join(re.escape(w) for w, _ in _CATALOGUE) + r")\b")


def _frames(tb: TracebackType | None) -> list[TracebackType]:
    out = []
    while tb is not None:
        out.append(tb)
        tb = tb.tb_next
    return out[::-1]  # innermost first


def _stdlib_call(frame_tb: TracebackType) -> str | None:
    code, local = frame_tb.tb_frame.f_code, frame_tb.tb_frame.f_locals
    if code.co_filename != socket.__file__:
        return None
    if code.co_name == "__init__" and local.get("family") == socket.AF_UNIX:
        return "socket(AF_UNIX)"
    if code.co_name == "__init__" and seccomp.sockets_refused():  # a reused network namespace
        return "socket()"
    kind = local.get("type")
    if code.co_name == "socketpair" and kind == socket.SOCK_DGRAM:
        return "socketpair(SOCK_DGRAM)"
    if code.co_name == "socketpair" and isinstance(kind, int) and kind & 0xF not in (1, 5):
        return "socketpair() of a datagram type"
    return None


def refused_call(exc: BaseException) -> str | None:
    """The filtered call ``exc`` (an ``EPERM``/``ENOSYS`` OSError) came from, or None."""
    if not isinstance(exc, OSError) or exc.errno not in (errno.EPERM, errno.ENOSYS):
        return None
    if not seccomp.loaded():
        return None
    frames = _frames(exc.__traceback__)
    for tb in frames:
        call = _stdlib_call(tb)
        if call is not None:
            return call
    texts = [str(exc)]
    for tb in frames[:2]:
        code = tb.tb_frame.f_code
        texts.append(linecache.getline(code.co_filename, tb.tb_lineno))
        texts.append(code.co_name)
    for text in texts:
        match = _WORDS.search(text)
        if match:
            return dict(_CATALOGUE)[match[1]]
    return None
