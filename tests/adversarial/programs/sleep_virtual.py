"""Not an attack: time.sleep and timed waits are virtual under the runtime, so hours pass instantly."""
print("ATTACK-START", flush=True)
import threading
import time

start = time.monotonic()
time.sleep(3600)
print("slept", round(time.monotonic() - start), flush=True)
worker = threading.Thread(target=lambda: threading.Event().wait(7200))
worker.start()
threading.Event().wait(600)
worker.join()
print("waited", round(time.monotonic() - start), flush=True)
