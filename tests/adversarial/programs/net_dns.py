"""Attack: resolve a public name, and send a raw DNS query to a resolver the test started (argv[1] = udp port)."""
print("ATTACK-START", flush=True)
import socket
import struct
import sys

port = int(sys.argv[1])
escaped = []
try:
    infos = socket.getaddrinfo("example.com", 80)
    escaped.append(f"getaddrinfo -> {infos[0][4]}")
except BaseException as exc:
    print(f"BLOCKED getaddrinfo {type(exc).__name__}: {exc}", flush=True)

# A hand-built query for example.com A, sent straight to a "resolver" on loopback.
query = struct.pack("!HHHHHH", 0x1234, 0x0100, 1, 0, 0, 0)
for label in b"example.com".split(b"."):
    query += bytes([len(label)]) + label
query += b"\0" + struct.pack("!HH", 1, 1)
try:
    import _socket

    u = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)
    u.settimeout(2)
    u.sendto(query, ("127.0.0.1", port))
    data, _ = u.recvfrom(512)
    escaped.append(f"raw DNS answer {data[:12]!r}")
except BaseException as exc:
    print(f"BLOCKED raw udp {type(exc).__name__}: {exc}", flush=True)

if escaped:
    print("ESCAPED", "; ".join(escaped), flush=True)
    sys.exit(0)
sys.exit(3)
