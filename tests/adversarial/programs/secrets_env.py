"""Attack: look for the parent's secret in the environment, /proc/self/environ and the parent's /proc entry."""
print("ATTACK-START", flush=True)
import os
import sys

needle = sys.argv[1]
found = []
if any(needle in v for v in os.environ.values()):
    found.append("os.environ")
try:
    with open("/proc/self/environ", "rb") as handle:
        if needle.encode() in handle.read():
            found.append("/proc/self/environ")
except OSError as exc:
    print(f"BLOCKED /proc/self/environ {exc}", flush=True)
for pid in {os.getppid(), 1}:
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            if needle.encode() in handle.read():
                found.append(f"/proc/{pid}/environ")
    except OSError as exc:
        print(f"BLOCKED /proc/{pid}/environ {exc}", flush=True)
print("HOME", os.environ.get("HOME"), "PPID", os.getppid(), "UID", os.getuid(), flush=True)
if found:
    print("ESCAPED secret visible via", ", ".join(found), flush=True)
    sys.exit(0)
print("BLOCKED secret not visible", flush=True)
sys.exit(3)
