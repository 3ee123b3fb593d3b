"""Attack: write a forged 'all good' report into every writable fd, then dup2 /dev/null over them all."""
print("ATTACK-START", flush=True)
import json
import os

forged = json.dumps(
    {"status": "ok", "exit_code": 0, "stdout": "FORGED", "stderr": "", "accesses": [], "unmocked": []}
).encode()
for fd in range(3, 1024):
    try:
        os.write(fd, forged + b"\n")
    except OSError:
        pass
devnull = os.open(os.devnull, os.O_RDWR)
for fd in range(0, 1024):
    if fd != devnull:
        try:
            os.dup2(devnull, fd)
        except OSError:
            pass
os._exit(0)
