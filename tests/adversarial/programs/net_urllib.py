"""Attack: urllib GET to a loopback HTTP server the test started (argv[1] = port)."""
print("ATTACK-START", flush=True)
import sys
import urllib.request

port = int(sys.argv[1])
try:
    body = urllib.request.urlopen(f"http://127.0.0.1:{port}/secret", timeout=3).read()
    # the server answers SECRET; anything else came from a stub in the plan
    print("ESCAPED" if body == b"SECRET" else "MOCKED", body[:40], flush=True)
except BaseException as exc:
    print(f"BLOCKED {type(exc).__name__}: {exc}", flush=True)
    raise
