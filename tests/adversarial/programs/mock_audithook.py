"""Attack: install an audit hook that vetoes everything the runtime/sandbox might do after us, then connect (argv[1] = port)."""
print("ATTACK-START", flush=True)
import sys

import _socket

port = int(sys.argv[1])
armed = []


def veto(event, args):
    if armed and not event.startswith(("sys.", "cpython.", "object.", "builtins.")):
        raise RuntimeError(f"vetoed {event}")


sys.addaudithook(veto)
armed.append(True)
try:
    conn = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    conn.settimeout(3)
    conn.connect(("127.0.0.1", port))
    print("ESCAPED connected with the audit hook armed", flush=True)
    sys.exit(0)
except BaseException as exc:
    print(f"BLOCKED {type(exc).__name__}: {exc}", flush=True)
# leave the hook armed: the runtime's own teardown (open, json, write) now gets vetoed
sys.exit(0)
