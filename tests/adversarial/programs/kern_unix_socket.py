"""Attack: reach a host service over a unix socket (argv[1]: a world-connectable pathname
stream socket outside /tmp, argv[2]: a pathname datagram socket, argv[3]: an abstract name);
by socket(), raw syscall, a datagram socketpair's sendto; then die of socket(AF_UNIX)."""
print("ATTACK-START", flush=True)
import ctypes
import errno
import os
import socket
import sys

stream_path, dgram_path, abstract = sys.argv[1], sys.argv[2], "\0" + sys.argv[3]
libc = ctypes.CDLL(None, use_errno=True)


def attempt(label, fn):
    try:
        fn()
    except OSError as exc:
        print(f"{label}: {errno.errorcode.get(exc.errno, exc.errno)}", flush=True)
    else:
        print(f"ESCAPED {label}", flush=True)


def connect(address):
    def go():
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(address)
            sock.sendall(b"hello from the sandbox")
    return go


def raw_socket():  # socket(2) with garbage in the upper half of the int argument
    fd = libc.syscall(ctypes.c_long(41), ctypes.c_long(0x100000001), ctypes.c_long(1), ctypes.c_long(0))
    if fd < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    with socket.socket(fileno=fd) as sock:
        sock.connect(stream_path)


def dgram_pair():
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    a.sendto(b"hello", dgram_path)


def raw_pair():  # AF_UNIX takes SOCK_RAW for SOCK_DGRAM
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_RAW)
    a.sendto(b"hello", dgram_path)


def stream_pair_sendto():  # a stream pair is connected: sendto an address is refused
    a, b = socket.socketpair()
    a.sendto(b"hello", stream_path)


attempt("connect pathname", connect(stream_path))
attempt("connect abstract", connect(abstract))
attempt("raw socket(0x100000001)", raw_socket)
attempt("socketpair(SOCK_DGRAM) sendto", dgram_pair)
attempt("socketpair(SOCK_RAW) sendto", raw_pair)
attempt("socketpair(SOCK_STREAM) sendto", stream_pair_sendto)
socket.socket(socket.AF_UNIX).connect(stream_path)  # uncaught: the report names the call
print("ESCAPED uncaught connect", flush=True)
