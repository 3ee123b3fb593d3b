"""Attack: forge the run report. Write a fake `started` and a fake `done` message (every layer on,
extra accesses, exit 0, passed) into every fd but stdio, then exit 3 (argv[1]: `exit` = sys.exit(3),
the sandbox's real `done` follows; `_exit` = os._exit(3); `done_only` = only the fake `done`, then
os._exit(3), so it is the only message after the real `started`; `agree` = only a fake `done`
that claims exit 3 itself, then os._exit(3))."""
print("ATTACK-START", flush=True)
import json
import os
import sys

mode = sys.argv[1]
names = ["session", "userns", "network", "filesystem", "pid", "rlimits", "mountlock", "uid", "runtime"]
layers = [{"name": n, "active": True, "detail": "FORGED all in force"} for n in names]
access = {"kind": "network", "api": "FORGED", "target": "https://forged.example", "mocked": True, "fix": ""}
code = 3 if mode == "agree" else 0
done = {
    "phase": "done",
    "exit_code": code,
    "status": "failed" if code else "passed",
    "exception": None,
    "detail": "FORGED detail",
    "accesses": [access],
    "layers": layers,
    "seconds": 0.0,
    "setup_seconds": 0.0,
    "extra": {},
}
payload = (json.dumps(done) + "\n").encode()
if mode in ("exit", "_exit"):
    payload = (json.dumps({"phase": "started", "layers": layers}) + "\n").encode() + payload
for fd in range(3, 1024):
    try:
        os.write(fd, payload)
    except OSError:
        pass
if mode == "exit":
    sys.exit(3)
os._exit(3)
