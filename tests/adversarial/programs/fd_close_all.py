"""Attack: close every inherited fd (stdout, stderr, and whatever carries the result back), then exit 0."""
print("ATTACK-START", flush=True)
import os

print("closing everything", flush=True)
os.closerange(0, 4096)
os._exit(0)
