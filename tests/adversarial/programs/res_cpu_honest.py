"""An honest candidate that needs some CPU: argv[1] million additions, then exits 0."""
print("ATTACK-START", flush=True)
import sys

total = 0
for i in range(int(sys.argv[1]) * 1_000_000):
    total += i
print("done", total > 0, flush=True)
