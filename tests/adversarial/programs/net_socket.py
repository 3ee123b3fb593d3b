"""Attack: plain socket connect to a loopback server the test started (argv[1] = port)."""
print("ATTACK-START", flush=True)
import socket
import sys

port = int(sys.argv[1])
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.settimeout(3)
try:
    s.connect(("127.0.0.1", port))
    s.sendall(b"ESCAPE")
    print("ESCAPED connected", flush=True)
except BaseException as exc:
    print(f"BLOCKED {type(exc).__name__}: {exc}", flush=True)
    raise
