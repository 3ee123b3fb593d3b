"""Attack: leave daemons behind (double fork + setsid), one exec'd with the marker in its argv and one
forked with the marker as its name; both ignore SIGTERM/SIGHUP (argv[1] = marker)."""
print("ATTACK-START", flush=True)
import ctypes
import os
import select
import signal
import sys

marker = sys.argv[1]


def daemonize() -> bool:
    if os.fork() > 0:
        return False
    os.setsid()
    if os.fork() > 0:
        os._exit(0)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    return True


if daemonize():
    os.execv(sys.executable, [sys.executable, "-c", "import select; select.select([], [], [], 600)", marker])
if daemonize():
    ctypes.CDLL(None).prctl(15, marker.encode()[:15], 0, 0, 0)
    select.select([], [], [], 600)
    os._exit(0)
print("daemons launched", flush=True)
sys.exit(0)
