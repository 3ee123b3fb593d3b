"""Attack: threading.Event().wait() with no timeout in a non-daemon thread and the main thread.

(A wait *with* a timeout is virtual under the runtime's scheduler: see sleep_virtual.py.)
"""
print("ATTACK-START", flush=True)
import threading

worker = threading.Thread(target=lambda: threading.Event().wait())
worker.start()
print("waiting", flush=True)
threading.Event().wait()
print("ESCAPED woke up", flush=True)
