"""The ``seccomp`` layer: a syscall filter that refuses kernel surface a program has no use for.

The filter is built with the system's libseccomp (through ctypes, no binding
needed) and exported once as a classic BPF program (:func:`prepare`; the batch
pool's zygote does it before it forks, so its children only load the bytes);
:func:`syscall_filter` loads it with ``seccomp(SECCOMP_SET_MODE_FILTER, TSYNC)``
as the last step of :func:`~automock.sandbox.kernel.isolation.enter_isolation`,
after every mount and the uid drop, with ``no_new_privs`` already set.

Every refused call fails with an errno (``EPERM``; ``clone3`` with ``ENOSYS`` so
libc falls back to ``clone``, whose flags the filter can read); nothing is
killed. Everything else is allowed. Without libseccomp (or seccomp) the layer
is reported OFF with the reason.
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

from automock.sandbox.kernel.layers import LayerStatus

__all__ = ["NO_SOCKETS", "REFUSED", "loaded", "prepare", "sockets_refused", "syscall_filter"]

AF_UNIX = 1
SOCK_DGRAM = 2
CLONE_NEWUSER = 0x10000000
_ACT_ALLOW = 0x7FFF0000
_ACT_ERRNO = 0x00050000
_CMP_NE, _CMP_MASKED_EQ = 1, 7
_ATTR_ACT_BADARCH = 2
_SET_MODE_FILTER, _FILTER_FLAG_TSYNC = 1, 1
_INT = 0xFFFFFFFF  # an ``int`` argument: the kernel ignores the upper 32 bits, so must we

# (call, errno, (argument index, mask, value) or None: refused when arg & mask == value;
# a mask of 0 compares arg != value)
_Rule = tuple[str, int, tuple[int, int, int] | None]
_RULES: tuple[_Rule, ...] = (
    ("socket", errno.EPERM, (0, _INT, AF_UNIX)),  # pathname sockets reach host services
    # a pair but of a stream type (1, 5): a datagram pair can sendto() a path, and AF_UNIX
    # takes SOCK_RAW (3) for SOCK_DGRAM; refused: bit 0 clear, or bit 1 or bit 3 set
    ("socketpair", errno.EPERM, (1, 0x1, 0)),
    ("socketpair", errno.EPERM, (1, 0x2, 0x2)),
    ("socketpair", errno.EPERM, (1, 0x8, 0x8)),
    ("unshare", errno.EPERM, (0, CLONE_NEWUSER, CLONE_NEWUSER)),
    ("clone", errno.EPERM, (0, CLONE_NEWUSER, CLONE_NEWUSER)),
    ("clone3", errno.ENOSYS, None),  # flags behind a pointer: libc falls back to clone
    *(
        (name, errno.EPERM, None)
        for name in (
            *("add_key", "request_key", "keyctl"),
            *("io_uring_setup", "io_uring_enter", "io_uring_register"),
            *("userfaultfd", "perf_event_open", "ptrace", "bpf", "setns"),
            *("kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module"),
            *("mount", "umount2", "pivot_root", "move_mount", "open_tree", "mount_setattr"),
            *("fsopen", "fsmount", "fsconfig", "fspick", "swapon", "swapoff", "reboot"),
        )
    ),
)
# in a lane's reused network namespace (automock.sandbox.kernel.netns): no socket of any
# family, and no name for the stream pairs asyncio and multiprocessing make
_NO_SOCKET_RULES: tuple[_Rule, ...] = (
    ("socket", errno.EPERM, None),
    ("socketpair", errno.EPERM, (0, 0, AF_UNIX)),
    ("bind", errno.EPERM, None),
)
NO_SOCKETS = (
    "socket() of every family, socketpair() but an AF_UNIX stream pair, bind() "
    "(the lane's network namespace is reused)"
)
REFUSED = (
    "socket(AF_UNIX), socketpair() but SOCK_STREAM/SOCK_SEQPACKET, new user namespaces (unshare/clone with "
    "CLONE_NEWUSER; clone3 -> ENOSYS), the keyring (add_key, request_key, keyctl), io_uring, "
    "userfaultfd, perf_event_open, ptrace, bpf, setns, kexec and kernel modules, the mount "
    "family, swapon/swapoff, reboot, non-native (32-bit, x32) syscalls"
)


class _Program:
    """The exported BPF program and what loading it needs, built once per process."""

    def __init__(self, code: bytes, seccomp_nr: int) -> None:
        import ctypes

        class _Fprog(ctypes.Structure):
            _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))

        self.code = ctypes.create_string_buffer(code, len(code))
        self.fprog = _Fprog(len(code) // 8, ctypes.addressof(self.code))
        self.nr = seccomp_nr
        self.args = (  # every argument converted now: the child only makes the call
            ctypes.c_long(seccomp_nr),
            ctypes.c_long(_SET_MODE_FILTER),
            ctypes.c_long(_FILTER_FLAG_TSYNC),
            ctypes.byref(self.fprog),
        )


# "program" / "no sockets": _Program, or "error": why there is none; "loaded"
_state: dict[str, Any] = {}


def _export(lib: Any, ctx: int) -> bytes:
    """The filter as raw ``sock_filter`` records (libseccomp 2.5 exports only to an fd)."""
    read_end, write_end = os.pipe()
    try:
        if lib.seccomp_export_bpf(ctx, write_end) != 0:
            raise OSError("seccomp_export_bpf failed")
        os.close(write_end)
        write_end = -1
        chunks = []
        while chunk := os.read(read_end, 65536):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)


def _build(extra: tuple[_Rule, ...] = ()) -> _Program:
    import ctypes

    class _ArgCmp(ctypes.Structure):
        _fields_ = (
            ("arg", ctypes.c_uint),
            ("op", ctypes.c_int),
            ("datum_a", ctypes.c_uint64),
            ("datum_b", ctypes.c_uint64),
        )

    lib = ctypes.CDLL("libseccomp.so.2")
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = (ctypes.c_uint32,)
    lib.seccomp_release.argtypes = (ctypes.c_void_p,)
    lib.seccomp_export_bpf.argtypes = (ctypes.c_void_p, ctypes.c_int)
    lib.seccomp_attr_set.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32)
    lib.seccomp_syscall_resolve_name.argtypes = (ctypes.c_char_p,)
    lib.seccomp_rule_add_array.argtypes = (
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(_ArgCmp),
    )
    ctx = lib.seccomp_init(_ACT_ALLOW)
    if not ctx:
        raise OSError("seccomp_init failed")
    try:
        if lib.seccomp_attr_set(ctx, _ATTR_ACT_BADARCH, _ACT_ERRNO | errno.EPERM) != 0:
            raise OSError("seccomp_attr_set(ACT_BADARCH) failed")
        for name, code, cond in (*_RULES, *extra):
            nr = lib.seccomp_syscall_resolve_name(name.encode())
            if nr < 0:  # not a call of this architecture (e.g. an old libseccomp's table)
                continue
            cmp = None
            if cond is not None:
                arg, mask, value = cond
                op = (_CMP_MASKED_EQ, mask) if mask else (_CMP_NE, value)  # NE: datum_a only
                cmp = (_ArgCmp * 1)(_ArgCmp(arg, op[0], op[1], value))
            rc = lib.seccomp_rule_add_array(ctx, _ACT_ERRNO | code, nr, 1 if cond else 0, cmp)
            if rc != 0:
                raise OSError(-rc, f"seccomp_rule_add({name}): {os.strerror(-rc)}")
        seccomp_nr = lib.seccomp_syscall_resolve_name(b"seccomp")
        return _Program(_export(lib, ctx), seccomp_nr)
    finally:
        lib.seccomp_release(ctx)


def prepare() -> None:
    """Build and export the filter in this process (once), so forked children only load it."""
    if _state or not sys.platform.startswith("linux"):
        return
    try:
        _state["program"] = _build()
        _state["no sockets"] = _build(_NO_SOCKET_RULES)
    except (OSError, AttributeError) as exc:
        _state["error"] = f"libseccomp unavailable ({exc})"


def loaded() -> bool:
    """Whether this process loaded the filter (so an ``EPERM`` may be the filter's)."""
    return bool(_state.get("loaded"))


def sockets_refused() -> bool:
    """Whether the filter this process loaded refuses every ``socket()`` (:data:`NO_SOCKETS`)."""
    return _state.get("loaded") == "no sockets"


def syscall_filter(*, sockets: bool = True) -> LayerStatus:
    """Load the filter into this process (all its threads); the layer as it then is.

    ``sockets=False``: also refuse every socket but an ``AF_UNIX`` stream pair, and
    ``bind()`` (:data:`NO_SOCKETS`: a child in a reused network namespace)."""
    if not sys.platform.startswith("linux"):
        return LayerStatus("seccomp", False, f"seccomp needs Linux (this is {sys.platform})")
    prepare()
    program: _Program | None = _state.get("program" if sockets else "no sockets")
    if program is None:
        return LayerStatus("seccomp", False, f"no syscall filter: {_state.get('error')}")
    import ctypes

    from automock.sandbox.kernel.syscalls import libc

    rc = libc().syscall(*program.args)
    if rc != 0:
        why = os.strerror(ctypes.get_errno()) if rc < 0 else f"thread {rc} could not be synced"
        return LayerStatus("seccomp", False, f"no syscall filter: seccomp() refused ({why})")
    _state["loaded"] = "sockets" if sockets else "no sockets"
    refused = REFUSED if sockets else f"{NO_SOCKETS}, {REFUSED}"
    return LayerStatus("seccomp", True, f"syscall filter refuses with EPERM: {refused}")
