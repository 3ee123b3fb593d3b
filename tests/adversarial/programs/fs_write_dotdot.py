"""Attack: climb out of the workdir with '..' and write (argv[1] = absolute target path)."""
print("ATTACK-START", flush=True)
import os
import sys

target = sys.argv[1]
depth = len(os.path.abspath(os.getcwd()).split(os.sep))
relative = os.path.join(*([".."] * (depth + 2)), target.lstrip(os.sep))
print(f"cwd={os.getcwd()} relative={relative}", flush=True)
try:
    with open(relative, "w") as handle:
        handle.write("ESCAPE")
    print(f"ESCAPED wrote {os.path.abspath(relative)}", flush=True)
except BaseException as exc:
    print(f"BLOCKED {type(exc).__name__}: {exc}", flush=True)
    raise
