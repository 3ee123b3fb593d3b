"""Attack: leave state for the next run or candidate in every kernel place a namespace-less sandbox
would share: a SysV semaphore counter, a message queue, a shared-memory counter, a POSIX message
queue, a key, the hostname; print what an earlier run left (the same output every run)."""
print("ATTACK-START", flush=True)
import ctypes
import errno
import os

KEY = 0x4D4B0A11  # fixed: a later run looks for what an earlier one left
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p


def err():
    return errno.errorcode.get(ctypes.get_errno(), "?")


sid = libc.semget(KEY, 1, 0o1000 | 0o666)
if sid >= 0:
    libc.semop(sid, (ctypes.c_short * 3)(0, 1, 0), 1)  # +1, no SEM_UNDO: it stays
    print("semaphore counter", libc.semctl(sid, 0, 12), flush=True)  # GETVAL
qid = libc.msgget(KEY, 0o1000 | 0o666)
if qid >= 0:
    buf = ctypes.create_string_buffer(64)
    left = libc.msgrcv(qid, buf, 32, 0, 0o4000)  # IPC_NOWAIT
    print("message left behind:", left >= 0, flush=True)
    libc.msgsnd(qid, ctypes.create_string_buffer(b"\x01" + b"\x00" * 7 + b"state", 16), 5, 0o4000)
mid = libc.shmget(KEY, 4096, 0o1000 | 0o666)
if mid >= 0:
    addr = libc.shmat(mid, None, 0)
    counter = ctypes.c_ubyte.from_address(addr)
    counter.value += 1
    print("shm counter", counter.value, flush=True)
mq = libc.mq_open(b"/automock-adv-linger", os.O_CREAT | os.O_RDWR | os.O_NONBLOCK, 0o666, None)
if mq >= 0:
    buf = ctypes.create_string_buffer(8192)
    left = libc.mq_receive(mq, buf, 8192, None)
    print("mqueue message left behind:", left >= 0, flush=True)
    libc.mq_send(mq, b"state", 5, 0)
else:
    print("mq_open", err(), flush=True)
found = libc.syscall(250, 10, -4, b"user", b"automock-adv-linger", 0)  # KEYCTL_SEARCH
print("key left behind:", found >= 0, flush=True)
added = libc.syscall(248, b"user", b"automock-adv-linger", b"state", 5, -4)
print("add_key", "ok" if added >= 0 else err(), flush=True)
print("sethostname", "ok" if libc.sethostname(b"changed", 7) == 0 else err(), flush=True)
print("hostname", os.uname().nodename, flush=True)
