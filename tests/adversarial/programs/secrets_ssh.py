"""Attack: read ~/.ssh/id_rsa, .ssh/id_rsa next to the program, and the planted key by absolute path (argv[1] = absolute path, argv[2] = needle)."""
print("ATTACK-START", flush=True)
import os
import sys

planted, needle = sys.argv[1], sys.argv[2]
found = []
for path in (os.path.expanduser("~/.ssh/id_rsa"), planted, os.path.join(".ssh", "id_rsa")):
    try:
        with open(path) as handle:
            if needle in handle.read():
                found.append(path)
    except OSError as exc:
        print(f"BLOCKED {path}: {type(exc).__name__}: {exc}", flush=True)
print("HOME", os.environ.get("HOME"), flush=True)
if found:
    print("ESCAPED key read from", ", ".join(found), flush=True)
    sys.exit(0)
sys.exit(3)
