"""Attack: start threads until the interpreter or the kernel refuses; keep them all alive."""
print("ATTACK-START", flush=True)
import ctypes
import resource
import sys
import threading

ctypes.CDLL(None).prctl(15, sys.argv[1].encode()[:15], 0, 0, 0)
soft, _ = resource.getrlimit(resource.RLIMIT_NPROC)
soft_as, _ = resource.getrlimit(resource.RLIMIT_AS)
if soft == resource.RLIM_INFINITY and soft_as == resource.RLIM_INFINITY:
    print("ESCAPED neither a process nor a memory limit in the sandbox", flush=True)
    sys.exit(0)
stop = threading.Event()
started = 0
try:
    while True:
        threading.Thread(target=stop.wait, daemon=True).start()
        started += 1
except BaseException as exc:
    print(f"BLOCKED after {started} threads: {type(exc).__name__}: {exc}", flush=True)
    raise
