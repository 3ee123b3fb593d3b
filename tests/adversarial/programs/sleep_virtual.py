"""Not an attack: time.sleep is virtual under the runtime, so an hour passes instantly."""
print("ATTACK-START", flush=True)
import time

start = time.monotonic()
time.sleep(3600)
print("slept", round(time.monotonic() - start), flush=True)
