"""Attack: open the host's SysV message queue, semaphore set, shared memory segment and POSIX
message queue (argv[1:5]: keys in decimal and the mqueue name; created by the test, mode 0666),
and write to each."""
print("ATTACK-START", flush=True)
import ctypes
import errno
import os
import sys

msg_key, sem_key, shm_key = (int(x) for x in sys.argv[1:4])
mq_name = sys.argv[4].encode()
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p


def report(label, rc):
    if rc < 0:
        print(f"{label}: {errno.errorcode.get(ctypes.get_errno(), '?')}", flush=True)
        return False
    print(f"ESCAPED {label} -> {rc}", flush=True)
    return True


qid = libc.msgget(msg_key, 0)
if report("msgget", qid):
    buf = ctypes.create_string_buffer(b"\x01\x00\x00\x00\x00\x00\x00\x00sandbox", 16)
    report("msgsnd", libc.msgsnd(qid, buf, 8, 0o4000))
sid = libc.semget(sem_key, 0, 0)
if report("semget", sid):
    op = (ctypes.c_short * 3)(0, 1, 0)
    report("semop", libc.semop(sid, op, 1))
mid = libc.shmget(shm_key, 0, 0)
if report("shmget", mid):
    addr = libc.shmat(mid, None, 0)
    if addr not in (None, ctypes.c_void_p(-1).value):
        ctypes.memset(addr, 0x41, 1)
        print("ESCAPED shm written", flush=True)
mq = libc.mq_open(mq_name, os.O_WRONLY | os.O_NONBLOCK)
if report("mq_open", mq):
    report("mq_send", libc.mq_send(mq, b"sandbox", 7, 0))
