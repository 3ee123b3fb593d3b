"""Attack, in a batch lane's reused network namespace: make a socket of any kind, by libc and by
raw syscalls, so that something is left in the namespace for the next candidate: ``socket()`` for
every address family and type, the same with garbage in the upper 32 bits of the family, the x32
ABI's ``socket``, ``socketpair()`` for every family and type, a name bound on a stream pair's end
(an abstract unix name lives in the network namespace), and io_uring (whose requests reach the
kernel's socket calls without the filter seeing them). Prints ``MADE`` with every call that
returned a descriptor (the attack's wins) and ``TRIED`` with how many calls it made."""
print("ATTACK-START", flush=True)
import ctypes
import json

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SOCKET, SOCKETPAIR, BIND, IO_URING_SETUP = 41, 53, 49, 425
X32 = 0x40000000
ALLOWED = {"socketpair(1, 1)", "socketpair(1, 5)"}  # the AF_UNIX stream pairs asyncio makes
made, allowed, tried = [], [], 0


def attempt(label: str, rc: int) -> int:
    global tried
    tried += 1
    if rc >= 0:
        (allowed if label in ALLOWED else made).append(label)
    return rc


pair = (ctypes.c_int * 2)()
for family in range(46):
    for kind in (1, 2, 3, 5, 10):  # stream, dgram, raw, seqpacket, packet
        attempt(f"socket({family}, {kind})", libc.syscall(SOCKET, family, kind, 0))
        garbage = (0xDEAD << 32) | family
        attempt(f"socket(garbage|{family}, {kind})", libc.syscall(SOCKET, garbage, kind, 0))
        attempt(f"socketpair({family}, {kind})", libc.syscall(SOCKETPAIR, family, kind, 0, pair))
    attempt(f"x32 socket({family})", libc.syscall(X32 | SOCKET, family, 1, 0))
# the pair asyncio makes is allowed: it must not get a name the next candidate could find
if libc.socketpair(1, 1, 0, pair) == 0:
    name = b"\x01\x00" + b"\x00automock-lane-trace"
    address = ctypes.create_string_buffer(name, len(name))
    attempt("bind(abstract name on a stream pair)", libc.bind(pair[0], address, len(name)))
params = ctypes.create_string_buffer(120)
attempt("io_uring_setup", libc.syscall(IO_URING_SETUP, 4, params))
print("MADE", json.dumps(made), flush=True)
print("ALLOWED", json.dumps(allowed), flush=True)
print("TRIED", tried, flush=True)
