"""Attack: SIGKILL the parent process and the parent's process group."""
print("ATTACK-START", flush=True)
import os
import signal
import sys

ppid = os.getppid()
print(f"ppid={ppid} pid={os.getpid()} uid={os.getuid()}", flush=True)
if ppid <= 1:
    print("BLOCKED no parent visible (pid namespace or reparented)", flush=True)
    sys.exit(3)
results = []
for label, action in (
    ("kill(ppid)", lambda: os.kill(ppid, signal.SIGKILL)),
    ("killpg(pgid(ppid))", lambda: os.killpg(os.getpgid(ppid), signal.SIGKILL)),
):
    try:
        action()
        results.append(f"{label} sent")
    except OSError as exc:
        results.append(f"{label} refused: {exc}")
print("; ".join(results), flush=True)
sys.exit(0)
