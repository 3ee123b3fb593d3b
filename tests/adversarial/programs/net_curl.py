"""Attack: shell out to curl to reach the loopback server (argv[1] = port)."""
print("ATTACK-START", flush=True)
import subprocess
import sys

port = int(sys.argv[1])
proc = subprocess.run(
    ["curl", "-s", "-S", "--max-time", "3", f"http://127.0.0.1:{port}/secret"],
    capture_output=True,
    text=True,
)
if proc.returncode == 0:
    print("ESCAPED", proc.stdout[:40], flush=True)
    sys.exit(0)
print(f"BLOCKED curl rc={proc.returncode} {proc.stderr.strip()}", flush=True)
sys.exit(3)
