"""A refusal of the seccomp filter that escapes a program is a violation naming the call."""

from __future__ import annotations

import errno
import json
import os
import socket
import sys

import pytest

from automock.sandbox.child.status import Status, exception_status

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="seccomp is Linux")


def _in_filtered_child() -> dict[str, list[str]]:
    """Fork, load the filter, classify what some refused calls raise; the statuses as JSON."""
    from automock.sandbox.kernel import seccomp
    from automock.sandbox.kernel.syscalls import PR_SET_NO_NEW_PRIVS, prctl

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        out: dict[str, list[str]] = {}
        try:
            prctl(PR_SET_NO_NEW_PRIVS, 1)
            out["layer"] = [str(seccomp.syscall_filter().active)]
            for label, call in (
                ("unix", lambda: socket.socket(socket.AF_UNIX)),
                ("dgram", lambda: socket.socketpair(type=socket.SOCK_DGRAM)),
                ("ctypes", lambda: _raise(errno.EPERM, "keyctl failed")),
                ("other", lambda: _raise(errno.EPERM, "not ours")),
                ("inet", lambda: socket.socket(socket.AF_INET).close()),
            ):
                try:
                    call()
                    out[label] = ["no error"]
                except OSError as exc:
                    out[label] = list(exception_status(exc))
        finally:
            os.write(write_fd, json.dumps(out).encode())
            os._exit(0)
    os.close(write_fd)
    data = os.read(read_fd, 65536)
    os.close(read_fd)
    os.waitpid(pid, 0)
    result: dict[str, list[str]] = json.loads(data)
    return result


def _raise(code: int, message: str) -> None:
    raise OSError(code, message)


def test_refusals_are_violations_that_name_the_call() -> None:
    out = _in_filtered_child()
    if out["layer"] != ["True"]:
        pytest.skip("no seccomp filter here (libseccomp or seccomp unavailable)")
    assert out["unix"][0] == Status.VIOLATION
    assert out["unix"][1].endswith("(refused by the sandbox's seccomp filter: socket(AF_UNIX))")
    assert out["dgram"][0] == Status.VIOLATION and "socketpair(SOCK_DGRAM)" in out["dgram"][1]
    assert out["ctypes"][0] == Status.VIOLATION and out["ctypes"][1].endswith("keyctl)")
    assert out["other"][0] == Status.ERROR  # an EPERM it cannot place: classified as usual
    assert out["inet"] == ["no error"]


def test_without_the_filter_an_eperm_is_an_error() -> None:
    exc = PermissionError(errno.EPERM, "keyctl failed")
    assert exception_status(exc)[0] == Status.ERROR
