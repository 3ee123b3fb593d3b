"""Attack: leave traces in the network namespace for the next run or candidate, and report what an
earlier one left: the kernel's counters (``/proc/net/snmp``, ``/proc/net/dev``), sockets still
listed (``/proc/net/tcp``, ``udp``, ``unix``). If a namespace were reused, these are the channel
one candidate could pass bits through to the next (and what would make the next run differ).
Sockets through libc, so no Python-level mock sees them."""
print("ATTACK-START", flush=True)
import ctypes
import ctypes.util
import json
import struct

libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
COUNTED = {
    "Ip": ("InReceives", "OutRequests", "OutNoRoutes", "InDelivers"),
    "Tcp": ("ActiveOpens", "PassiveOpens", "AttemptFails", "OutRsts", "OutSegs"),
    "Udp": ("InDatagrams", "OutDatagrams", "NoPorts"),
}


def state() -> dict[str, int]:
    seen: dict[str, int] = {}
    try:
        with open("/proc/net/snmp") as handle:
            lines = handle.read().splitlines()
    except OSError as exc:
        return {f"snmp unreadable ({exc.errno})": 0}
    for names, values in zip(lines[::2], lines[1::2]):
        proto, *fields = names.split()
        counts = values.split()[1:]
        for name, count in zip(fields, counts):
            if name in COUNTED.get(proto.rstrip(":"), ()):
                seen[f"{proto}{name}"] = int(count)
    try:
        with open("/proc/net/dev") as handle:
            for line in handle.read().splitlines()[2:]:
                iface, numbers = line.split(":", 1)
                fields = numbers.split()
                seen[f"dev {iface.strip()} rx/tx packets"] = int(fields[1]) + int(fields[9])
    except OSError:
        pass
    for table in ("tcp", "udp", "unix"):
        try:
            with open(f"/proc/net/{table}") as handle:
                seen[f"{table} sockets"] = len(handle.read().splitlines()) - 1
        except OSError:
            pass
    return seen


before = state()


def sockaddr(address: bytes, port: int) -> ctypes.Array[ctypes.c_char]:
    raw = struct.pack("=H", 2) + struct.pack("!H", port) + address + b"\0" * 8
    return ctypes.create_string_buffer(raw, len(raw))


refused = []  # errno of each socket() the kernel refused (EPERM: the seccomp filter)


def new_socket(kind: int) -> int:
    fd = libc.socket(2, kind, 0)
    if fd < 0:
        refused.append(ctypes.get_errno())
    return fd


loopback, elsewhere = bytes([127, 0, 0, 1]), bytes([10, 0, 0, 1])
listener = new_socket(1)  # a TCP listener left open until the process dies
libc.bind(listener, sockaddr(loopback, 47831), 16)
libc.listen(listener, 8)
for address in (loopback, elsewhere):
    for port in (47831, 47832, 9):
        tcp = new_socket(1)
        libc.connect(tcp, sockaddr(address, port), 16)  # refused or unreachable: counted either way
        udp = new_socket(2)
        libc.sendto(udp, b"x", 1, 0, sockaddr(address, port), 16)
after = state()
print("NETBEFORE", json.dumps(before, sort_keys=True), flush=True)
print("NETAFTER", json.dumps(after, sort_keys=True), flush=True)
print("REFUSED", json.dumps(refused), flush=True)
