"""Probe, run after net_every_family in the same batch lane: what the lane's network namespace
shows this candidate (the files the pool compares before each reuse), printed as ``NETVIEW``."""
import json

view = {}
for name in ("snmp", "unix", "sockstat", "sockstat6"):
    try:
        with open(f"/proc/net/{name}") as handle:
            view[name] = handle.read()
    except OSError as exc:
        view[name] = f"unreadable ({exc.errno})"
print("NETVIEW", json.dumps(view), flush=True)
