"""Attack: write a file at an absolute path outside the workdir (argv[1] = target path)."""
print("ATTACK-START", flush=True)
import sys

target = sys.argv[1]
try:
    with open(target, "w") as handle:
        handle.write("ESCAPE")
    print(f"ESCAPED wrote {target}", flush=True)
except BaseException as exc:
    print(f"BLOCKED {type(exc).__name__}: {exc}", flush=True)
    raise
