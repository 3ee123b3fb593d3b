"""A well-behaved run beside a greedy one: fork one short-lived child at a time for a few
seconds (argv[2] rounds of 30 ms) and count the forks the kernel refused. Named argv[1]."""
print("ATTACK-START", flush=True)
import ctypes
import os
import select
import sys

ctypes.CDLL(None).prctl(15, sys.argv[1].encode()[:15], 0, 0, 0)
failures = 0
for _ in range(int(sys.argv[2])):
    try:
        pid = os.fork()
    except OSError:
        failures += 1
    else:
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    select.select([], [], [], 0.03)
print(f"fork failures: {failures}", flush=True)
sys.exit(1 if failures else 0)
