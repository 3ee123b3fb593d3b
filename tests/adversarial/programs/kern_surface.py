"""Attack: kernel surface a program has no use for: io_uring, userfaultfd, perf_event_open, a
new user namespace (unshare, clone), ptrace of a process of its own, setns, mount, bpf."""
print("ATTACK-START", flush=True)
import ctypes
import errno
import os
import signal
import time

libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUSER = 0x10000000


def report(label, rc):
    if rc < 0:
        print(f"{label}: {errno.errorcode.get(ctypes.get_errno(), '?')}", flush=True)
    else:
        print(f"ESCAPED {label} -> {rc}", flush=True)
    return rc


params = ctypes.create_string_buffer(120)  # struct io_uring_params
report("io_uring_setup", libc.syscall(425, 4, params))
report("userfaultfd", libc.syscall(323, 0))
attr = ctypes.create_string_buffer(128)  # perf_event_attr: software cpu-clock
attr[4:8] = (128).to_bytes(4, "little")
attr[0:4] = (1).to_bytes(4, "little")
report("perf_event_open", libc.syscall(298, attr, 0, -1, -1, 0))
report("unshare(CLONE_NEWUSER)", libc.unshare(CLONE_NEWUSER))
if report("clone(CLONE_NEWUSER)", libc.syscall(56, CLONE_NEWUSER | signal.SIGCHLD, 0, 0, 0, 0)) == 0:
    os._exit(0)  # the child of a clone that went through
report("clone3", libc.syscall(435, None, 0))
sibling = os.fork()
if sibling == 0:
    time.sleep(30)
    os._exit(0)
report("ptrace(ATTACH child)", libc.ptrace(16, sibling, None, None))
other = os.fork()
if other == 0:  # a sibling of the sleeping process tries it too
    report("ptrace(ATTACH sibling)", libc.ptrace(16, sibling, None, None))
    os._exit(0)
os.waitpid(other, 0)
os.kill(sibling, signal.SIGKILL)
os.waitpid(sibling, 0)
report("setns", libc.setns(os.open("/proc/self/ns/net", os.O_RDONLY), 0))
report("mount tmpfs", libc.mount(b"none", b"/tmp", b"tmpfs", 0, None))
report("bpf", libc.syscall(321, 0, None, 0))
print("hostname", os.uname().nodename, flush=True)
with open("/proc/sys/kernel/hostname") as handle:
    print("proc hostname", handle.read().strip(), flush=True)
