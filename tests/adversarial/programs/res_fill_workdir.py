"""Attack: fill the host's temp filesystem through the run's workdir: 16 MiB files in the
current directory until argv[1] MiB are written or a write is refused (then re-raised)."""
print("ATTACK-START", flush=True)
import os
import sys

block = b"\xa5" * (1 << 20)
written = 0
try:
    while written < int(sys.argv[1]):
        with open(f"fill-{written // 16:04d}.bin", "wb") as handle:
            for _ in range(16):
                handle.write(block)
                handle.flush()
                written += 1
finally:
    print(f"written {written} MiB", flush=True)
print(f"ESCAPED wrote {written} MiB into the workdir", flush=True)
