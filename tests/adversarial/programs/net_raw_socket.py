"""Attack: bypass any patched socket.socket via the C-level _socket module (argv[1] = port)."""
print("ATTACK-START", flush=True)
import _socket
import sys

port = int(sys.argv[1])
s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
s.settimeout(3)
try:
    s.connect(("127.0.0.1", port))
    s.send(b"ESCAPE")
    print("ESCAPED connected", flush=True)
except BaseException as exc:
    print(f"BLOCKED {type(exc).__name__}: {exc}", flush=True)
    raise
