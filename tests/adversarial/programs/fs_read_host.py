"""Attack: read host files outside the workdir (argv: paths). Prints what it got; the test looks
for the nonce in the output, not for the word ESCAPED alone."""

import os
import sys

print("ATTACK-START", flush=True)
for path in sys.argv[1:]:
    try:
        if os.path.isdir(path):
            print(f"ESCAPED listed {path}: {sorted(os.listdir(path))[:20]}", flush=True)
        else:
            with open(path, "rb") as handle:
                print(f"ESCAPED read {path}: {handle.read(200)!r}", flush=True)
    except OSError as exc:
        print(f"DENIED {path}: {exc.strerror}", flush=True)
