"""Where the warm ``automock run`` server listens, and how client and server talk.

The socket lives in a directory only its user can enter:
``$XDG_RUNTIME_DIR/automock`` when that is set (the user's own runtime directory),
else ``/tmp/automock-<uid>``. :func:`socket_dir` makes it ``0700`` and refuses one
that is a symlink, not owned by this user, or open to anyone else, so nobody else
can connect to a server or put a fake one in its place; both ends also check the
other's uid (``SO_PEERCRED``). One server serves one interpreter, one checkout of
automock and one seed (so one string-hash seed): that triple names its socket
(:func:`socket_path`).

Messages are ``marshal``-ed dicts of plain data, each behind its length; the
client's first one carries its stdin, stdout and stderr as ``SCM_RIGHTS``
descriptors. Only modules built into the interpreter are imported: the client
runs this before anything else.
"""

from __future__ import annotations

import _socket
import marshal
import os
import stat
import sys

TYPE_CHECKING = False  # not typing's: the client imports as little as it can
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "HANDLER_ENV",
    "IDENTITY_ENV",
    "Connection",
    "connect",
    "identity",
    "leave_nothing",
    "log_path",
    "socket_dir",
    "socket_path",
]

_MAX_MESSAGE = 1 << 20
# The only variables a client passes on, and a server keeps of its own start-up environment
# (beside the identity ones, which must be equal anyway): what automock itself reads. A value
# a server's handler receives stays in its heap, where a forked sandbox child could read it,
# so nothing else (a token, a key, an AUTOMOCK_* variable automock does not read) goes there.
HANDLER_ENV = (
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "TMPDIR",
    "TZ",
    "TERM",
    "COLUMNS",
    "LINES",
    "NO_COLOR",
    "FORCE_COLOR",
    "XDG_CACHE_HOME",
    "XDG_RUNTIME_DIR",
    "VIRTUAL_ENV",
    "AUTOMOCK_DEBUG",
    "AUTOMOCK_SPAWN",
    "AUTOMOCK_MODEL",
    "AUTOMOCK_LLM",
    "AUTOMOCK_DRAFTER",
    "OPENAI_BASE_URL",  # where the model is, not a secret (the keys are never passed on)
)
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


def _fnv1a(data: bytes) -> int:
    """64-bit FNV-1a of ``data``: a name, not a secret (the directory is the protection),
    and no hash module for the client to load."""
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def socket_path(directory: str, seed: int) -> str:
    """The socket of the server for this interpreter, this automock and runs of ``seed``."""
    key = _fnv1a(f"{os.path.realpath(sys.executable)}\0{_package_root()}".encode())
    return os.path.join(directory, f"run-{key:016x}-{seed}.sock")


def log_path(socket: str) -> str:
    """Where the server on ``socket`` writes its stderr (removed at its end when empty)."""
    return os.path.splitext(socket)[0] + ".log"


def leave_nothing(socket: str) -> None:
    """At a server's end: its log goes when it is empty (when it is this process's stderr),
    then the socket directory when nothing else is in it. A log with text is kept
    (``automock server stop`` says where)."""
    import contextlib

    log = log_path(socket)
    with contextlib.suppress(OSError):
        mine, there = os.fstat(2), os.stat(log)
        if (mine.st_dev, mine.st_ino) == (there.st_dev, there.st_ino) and there.st_size == 0:
            os.unlink(log)
    with contextlib.suppress(OSError):
        os.rmdir(os.path.dirname(socket))  # only when empty: another server's files stay


def identity(environ: dict[str, str] | os._Environ[str]) -> dict[str, Any]:
    """What must be equal in client and server for the server to stand in for the CLI."""
    env = {
        k: v for k, v in environ.items() if k.startswith(IDENTITY_ENV) and k not in _NOT_IDENTITY
    }
    return {
        "python": os.path.realpath(sys.executable),
        "version": sys.version,
        "root": _package_root(),
        "env": dict(sorted(env.items())),
        "flags": [sys.flags.utf8_mode, sys.flags.optimize],
    }


class Connection:
    """One end of a client-server connection: length-prefixed ``marshal`` messages of plain
    data (dicts, lists, str, int), descriptors with the first byte of a message.

    ``marshal`` and ``_socket`` are built into the interpreter: the client imports nothing.
    Both ends are the same user (``SO_PEERCRED``, a ``0700`` directory) and every field is
    type-checked by its reader, so a message is data, never code.
    """

    def __init__(self, sock: _socket.socket) -> None:
        self.sock = sock
        self._buffer = b""
        self._fds: list[int] = []

    def peer_uid(self) -> int:
        """The uid of the process at the other end (``SO_PEERCRED``: pid, uid, gid)."""
        creds = self.sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
        return int.from_bytes(creds[4:8], sys.byteorder)

    def send(self, message: dict[str, Any], fds: tuple[int, ...] = ()) -> None:
        """One message (with ``fds`` attached to its first byte)."""
        body = marshal.dumps(message)
        data = len(body).to_bytes(4, "big") + body
        if fds:
            rights = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in fds)
            sent = self.sock.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)])
            data = data[sent:]
        while data:
            data = data[self.sock.send(data) :]

    def receive(self) -> tuple[dict[str, Any] | None, list[int]]:
        """The next message and the descriptors that came with it; None at end of file or
        for anything that is not a dict."""
        while len(self._buffer) < 4 or len(self._buffer) < 4 + self._size():
            if self._buffer[:4] and self._size() > _MAX_MESSAGE:
                return None, self._take_fds()
            data, ancillary, _, _ = self.sock.recvmsg(65536, _socket.CMSG_SPACE(4 * 4))
            for level, kind, payload in ancillary:
                if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
                    usable = len(payload) - len(payload) % 4
                    self._fds += [
                        int.from_bytes(payload[i : i + 4], sys.byteorder, signed=True)
                        for i in range(0, usable, 4)
                    ]
            if not data:
                return None, self._take_fds()
            self._buffer += data
        size = self._size()
        body, self._buffer = self._buffer[4 : 4 + size], self._buffer[4 + size :]
        try:
            message = marshal.loads(body)
        except (ValueError, EOFError, TypeError):
            return None, self._take_fds()
        return (message if type(message) is dict else None), self._take_fds()

    def _size(self) -> int:
        return int.from_bytes(self._buffer[:4], "big")

    def _take_fds(self) -> list[int]:
        fds, self._fds = self._fds, []
        return fds


def connect(path: str) -> Connection | None:
    """A connection to the server at ``path`` run by this user, or None."""
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(path)
        conn = Connection(sock)
        if conn.peer_uid() == os.geteuid():
            return conn
    except OSError:
        pass
    sock.close()
    return None
