"""Attack: a fresh interpreter (no runtime patches at all) connects to the loopback server (argv[1] = port)."""
print("ATTACK-START", flush=True)
import subprocess
import sys

port = int(sys.argv[1])
code = (
    "import socket,sys\n"
    f"s=socket.create_connection(('127.0.0.1',{port}),timeout=3)\n"
    "s.sendall(b'ESCAPE')\n"
    "print('ESCAPED connected')\n"
)
proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
if proc.returncode == 0 and "ESCAPED" in proc.stdout:
    print(proc.stdout.strip(), flush=True)
    sys.exit(0)
last = (proc.stderr.strip().splitlines() or ["?"])[-1]
print(f"BLOCKED python -c rc={proc.returncode} {last}", flush=True)
sys.exit(3)
