"""Attack: write one level above the workdir (inside the sandbox's temp root); prints where."""
print("ATTACK-START", flush=True)
import os

path = os.path.abspath(os.path.join("..", "escape-parent.txt"))
print(f"TARGET {path}", flush=True)
try:
    with open(path, "w") as handle:
        handle.write("ESCAPE")
    print(f"WROTE {path}", flush=True)
except BaseException as exc:
    print(f"BLOCKED {type(exc).__name__}: {exc}", flush=True)
    raise
