"""Read what the host's kernel says about itself: its boot id, its uptime and idle time, its boot
time, its load, and its monotonic and boot clocks read from C (ctypes, past any Python-level mock).
First it tries to take the masks off (umount2 of each file, as a program with
capabilities in its own user namespace would). Prints one FACTS line of JSON (clocks and uptime
to 10 s); the test compares it with the host's own values."""
print("ATTACK-START", flush=True)
import ctypes
import json
import os


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def c_clock(clock_id):
    libc = ctypes.CDLL(None, use_errno=True)
    spec = Timespec()
    if libc.clock_gettime(clock_id, ctypes.byref(spec)) != 0:
        return None
    return float(spec.tv_sec // 10 * 10)  # to 10 s: what a run takes does not show


def read(path):
    try:
        with open(path) as handle:
            return handle.read()
    except OSError as exc:
        return f"unreadable: {exc.strerror}"


libc = ctypes.CDLL(None, use_errno=True)
for path in ("/proc/sys/kernel/random/boot_id", "/proc/uptime", "/proc/stat", "/proc/loadavg"):
    if libc.umount2(path.encode(), 2) == 0:  # MNT_DETACH
        print("ESCAPED: unmounted", path)
stat = read("/proc/stat")
btime = [line.split()[1] for line in stat.splitlines() if line.startswith("btime ")]
uptime = read("/proc/uptime").split()
facts = {
    "boot_id": read("/proc/sys/kernel/random/boot_id").strip(),
    "uptime": float(uptime[0]) // 10 * 10 if uptime and uptime[0][0].isdigit() else uptime,
    "idle": float(uptime[1]) if len(uptime) > 1 else None,
    "btime": int(btime[0]) if btime else None,
    "loadavg": read("/proc/loadavg").strip(),
    "monotonic": c_clock(1),  # CLOCK_MONOTONIC
    "boottime": c_clock(7),  # CLOCK_BOOTTIME
}
if os.listdir("/tmp") and any(name.startswith(".automock") for name in os.listdir("/tmp")):
    print("LEFT IN /tmp:", os.listdir("/tmp"))  # the sandbox's staging of the fixed files
print("FACTS " + json.dumps(facts, sort_keys=True))
