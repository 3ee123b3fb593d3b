"""Attack: close fds 1 and 2 then keep running and print (EBADF / BrokenPipe at shutdown)."""
print("ATTACK-START", flush=True)
import os
import sys

os.close(1)
os.close(2)
print("into the void")
sys.exit(7)
