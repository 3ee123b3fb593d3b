"""Attack: libc socket()/connect() through ctypes, invisible to any Python-level patch (argv[1] = port)."""
print("ATTACK-START", flush=True)
import ctypes
import ctypes.util
import os
import struct
import sys

port = int(sys.argv[1])
libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
fd = libc.socket(2, 1, 0)  # AF_INET, SOCK_STREAM
if fd < 0:
    err = ctypes.get_errno()
    print(f"BLOCKED socket() errno {err} {os.strerror(err)}", flush=True)
    raise OSError(err, os.strerror(err))
# struct sockaddr_in: family (host order u16), port (network order), addr, zero pad
addr = struct.pack("=H", 2) + struct.pack("!H", port) + bytes([127, 0, 0, 1]) + b"\0" * 8
buf = ctypes.create_string_buffer(addr, len(addr))
rc = libc.connect(fd, buf, len(addr))
if rc == 0:
    libc.write(fd, b"ESCAPE", 6)
    print("ESCAPED connected", flush=True)
    sys.exit(0)
err = ctypes.get_errno()
print(f"BLOCKED connect() errno {err} {os.strerror(err)}", flush=True)
raise OSError(err, os.strerror(err))
