"""Attack: undo the runtime's patches (reload time/random/socket/urllib), then reach the loopback server (argv[1] = port)."""
print("ATTACK-START", flush=True)
import importlib
import random
import socket
import sys
import time
import urllib.request

for module in (time, random, socket, urllib.request):
    try:
        importlib.reload(module)
    except BaseException as exc:
        print(f"reload {module.__name__} failed: {type(exc).__name__}: {exc}", flush=True)
import _socket

socket.socket = _socket.socket  # belt and braces: the raw C type
print("time.time", time.time(), "random", random.random(), flush=True)
port = int(sys.argv[1])
try:
    conn = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    conn.settimeout(3)
    conn.connect(("127.0.0.1", port))
    conn.send(b"ESCAPE")
    print("ESCAPED connected after reload", flush=True)
except BaseException as exc:
    print(f"BLOCKED {type(exc).__name__}: {exc}", flush=True)
    raise
