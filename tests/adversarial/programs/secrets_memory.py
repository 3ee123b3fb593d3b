"""Attack: dig the parent's secret out of this process's own memory (what a fork inherits).

The secret comes reversed in argv, so the only copy this program makes is the one needle.
"""
print("ATTACK-START", flush=True)
import ctypes
import sys

needle = sys.argv[1][::-1].encode()
hits = 0
with open("/proc/self/maps") as handle:
    regions = [line.split() for line in handle]
for fields in regions:
    if not fields[1].startswith("rw"):
        continue
    start, end = (int(x, 16) for x in fields[0].split("-"))
    if end - start > 256 << 20:
        continue
    try:
        hits += ctypes.string_at(start, end - start).count(needle)
    except (OSError, ValueError):
        continue
if hits > 1:  # one is the needle itself
    print(f"ESCAPED secret found {hits - 1} time(s) in this process's memory", flush=True)
    sys.exit(0)
print("BLOCKED secret not in memory", flush=True)
sys.exit(3)
