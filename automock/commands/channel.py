"""Where the warm ``automock run`` server listens, and how client and server talk.

The socket lives in a directory only its user can enter:
``$XDG_RUNTIME_DIR/automock`` when that is set (the user's own runtime directory),
else ``/tmp/automock-<uid>``. :func:`socket_dir` makes it ``0700`` and refuses one
that is a symlink, not owned by this user, or open to anyone else, so nobody else
can connect to a server or put a fake one in its place; both ends also check the
other's uid (``SO_PEERCRED``). One server serves one interpreter, one checkout of
automock and one string-hash seed: that triple names its socket (:func:`socket_path`).

Messages are one line of JSON each; the client's first one carries its stdin,
stdout and stderr as ``SCM_RIGHTS`` descriptors. Only ``os``, ``socket`` and
``json`` are imported: the client runs this before anything heavy.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
import zlib
from typing import Any

__all__ = [
    "IDENTITY_ENV",
    "Connection",
    "identity",
    "socket_dir",
    "socket_path",
]

_MAX_MESSAGE = 1 << 20
# what a client's environment must share with the server's for the server to run its command:
# the interpreter's start-up settings and the locale (fixed when the server started)
IDENTITY_ENV = ("PYTHON", "LANG", "LC_")
_NOT_IDENTITY = ("PYTHONHASHSEED", "PYTHONPROFILEIMPORTTIME")


def socket_dir(*, create: bool = False) -> str | None:
    """This user's private socket directory (made ``0700`` with ``create``), or None if unsafe."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    base = (
        os.path.join(runtime, "automock")
        if runtime.startswith("/")
        else os.path.join("/tmp", f"automock-{os.geteuid()}")
    )
    if create:
        try:
            os.mkdir(base, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return None
    try:
        info = os.lstat(base)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        return None
    return base


def _package_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def socket_path(directory: str, hash_seed: str) -> str:
    """The socket of the server for this interpreter, this automock and ``hash_seed``."""
    key = zlib.crc32(f"{os.path.realpath(sys.executable)}\0{_package_root()}".encode())
    return os.path.join(directory, f"run-{key:08x}-{hash_seed}.sock")


def identity(environ: dict[str, str] | os._Environ[str]) -> dict[str, Any]:
    """What must be equal in client and server for the server to stand in for the CLI."""
    env = {
        k: v
        for k, v in environ.items()
        if k.startswith(IDENTITY_ENV) and k not in _NOT_IDENTITY
    }
    return {
        "python": os.path.realpath(sys.executable),
        "version": sys.version,
        "root": _package_root(),
        "env": dict(sorted(env.items())),
        "flags": [sys.flags.utf8_mode, sys.flags.optimize],
    }


class Connection:
    """One end of a client-server connection: JSON lines, descriptors with the first."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._buffer = b""
        self._fds: list[int] = []

    def peer_uid(self) -> int:
        """The uid of the process at the other end (``SO_PEERCRED``)."""
        import struct

        size = struct.calcsize("3i")
        creds = self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, size)
        return int(struct.unpack("3i", creds)[1])

    def send(self, message: dict[str, Any], fds: tuple[int, ...] = ()) -> None:
        """One JSON line (with ``fds`` attached to its first byte)."""
        data = (json.dumps(message) + "\n").encode()
        if fds:
            sent = socket.send_fds(self.sock, [data], list(fds))
            data = data[sent:]
        self.sock.sendall(data)

    def receive(self) -> tuple[dict[str, Any] | None, list[int]]:
        """The next JSON object and the descriptors that came with it; None at end of file
        or on anything that is not one line of JSON object."""
        while b"\n" not in self._buffer:
            if len(self._buffer) > _MAX_MESSAGE:
                return None, self._take_fds()
            data, fds, _, _ = socket.recv_fds(self.sock, 65536, 4)
            self._fds += fds
            if not data:
                return None, self._take_fds()
            self._buffer += data
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            message = json.loads(line)
        except ValueError:
            return None, self._take_fds()
        return (message if isinstance(message, dict) else None), self._take_fds()

    def _take_fds(self) -> list[int]:
        fds, self._fds = self._fds, []
        return fds
