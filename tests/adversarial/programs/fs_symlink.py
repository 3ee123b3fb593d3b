"""Attack: plant a symlink in the workdir pointing outside, then write through it (argv[1] = dir, argv[2] = name)."""
print("ATTACK-START", flush=True)
import os
import sys

outside_dir, name = sys.argv[1], sys.argv[2]
os.symlink(outside_dir, "door")
try:
    with open(os.path.join("door", name), "w") as handle:
        handle.write("ESCAPE")
    print(f"ESCAPED wrote through symlink into {outside_dir}", flush=True)
except BaseException as exc:
    print(f"BLOCKED {type(exc).__name__}: {exc}", flush=True)
    raise
