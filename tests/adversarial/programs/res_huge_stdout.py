"""Attack: flood stdout and stderr (argv[1] = megabytes, default 256)."""
print("ATTACK-START", flush=True)
import sys

megabytes = int(sys.argv[1]) if len(sys.argv) > 1 else 256
chunk = b"x" * (1024 * 1024 - 1) + b"\n"
for _ in range(megabytes):
    sys.stdout.buffer.write(chunk)
    sys.stderr.buffer.write(chunk[:4096])
sys.stdout.flush()
print("FLOOD-END", flush=True)
