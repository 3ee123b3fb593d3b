"""Attack: take every process the run may have and hold them (another run beside it must
still be able to fork). Every process carries argv[1] as its name (comm)."""
print("ATTACK-START", flush=True)
import ctypes
import os
import select
import sys

ctypes.CDLL(None).prctl(15, sys.argv[1].encode()[:15], 0, 0, 0)  # PR_SET_NAME, inherited by fork
held = 0
for _ in range(500):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        select.select([], [], [], 60)  # a real wait: the clock mock does not cover select
        os._exit(0)
    held += 1
print(f"holding {held} processes", flush=True)
select.select([], [], [], 60)
