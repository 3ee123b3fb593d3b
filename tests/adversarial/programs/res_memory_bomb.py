"""Attack: allocate memory until something gives (refuses to start if no memory limit is set)."""
print("ATTACK-START", flush=True)
import resource
import sys

soft, _ = resource.getrlimit(resource.RLIMIT_AS)
if soft == resource.RLIM_INFINITY:
    print("ESCAPED no address-space limit in the sandbox", flush=True)
    sys.exit(0)
print(f"limit {soft}", flush=True)
hoard = []
while True:
    hoard.append(bytearray(64 * 1024 * 1024))
