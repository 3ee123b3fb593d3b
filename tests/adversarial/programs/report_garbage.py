"""Attack: break automock's parser of the result pipe. Write garbage of kind argv[1] into every fd
but stdio, then sys.exit(3) (argv[2] == "_exit": os._exit(3), so no real `done` follows)."""
print("ATTACK-START", flush=True)
import json
import os
import sys

kind = sys.argv[1]
done = {"phase": "done", "exit_code": 0, "status": "passed", "detail": "", "accesses": [], "layers": []}


def line(message: object) -> bytes:
    return (json.dumps(message) + "\n").encode()


garbage = {
    "nesting": b"[" * 100000 + b"\n",
    "nesting_dict": b'{"a":' * 100000 + b"\n",
    "huge": b"x" * (70 * 1024 * 1024),
    "huge_lines": (b"\xff" * 1023 + b"\n") * (70 * 1024),
    "utf8": b'{"phase": "done", "exit_code": 3, "status": "failed", "detail": "\xff\xfe"}\n',
    "nul": b'{"phase": "done", "exit_code": 3, "status": "failed", "detail": "\x00"}\n',
    "duplicate": line({**done, "exit_code": 3, "status": "failed", "detail": "first"})
    + line({**done, "exit_code": 3, "status": "timeout", "detail": "second"}),
    "exit_code_str": line({**done, "exit_code": "x"}),
    "exit_code_bool": line({**done, "exit_code": True}),
    "layers_int": line({**done, "exit_code": 3, "status": "failed", "layers": 5}),
    "accesses_bad": line({**done, "exit_code": 3, "status": "failed", "accesses": [{"nope": 1}]}),
    "accesses_types": line(
        {**done, "exit_code": 3, "status": "failed", "accesses": [{"kind": 1, "api": None}]}
    ),
    "layer_keys": line({**done, "exit_code": 3, "status": "failed", "layers": [{"name": "x"}]}),
    "setup_nan": b'{"phase": "done", "exit_code": 3, "status": "failed", "setup_seconds": NaN}\n',
    "big_int": b'{"phase": "done", "exit_code": ' + b"9" * 5000 + b', "status": "failed"}\n',
    "list": b"[1, 2, 3]\n",
    "no_newline": b'{"phase": "done", "exit_code": 3',
    "unknown_key": line({**done, "exit_code": 3, "status": "failed", "evil": 1}),
    "status_unknown": line({**done, "exit_code": 3, "status": "ok"}),
}[kind]
for fd in range(3, 1024):
    try:
        view = memoryview(garbage)
        while view:
            view = view[os.write(fd, view) :]
    except OSError:
        pass
sys.stdout.flush()
if len(sys.argv) > 2 and sys.argv[2] == "_exit":
    os._exit(3)
sys.exit(3)
