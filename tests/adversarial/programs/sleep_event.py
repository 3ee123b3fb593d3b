"""Attack: threading.Event().wait() in a non-daemon thread and the main thread."""
print("ATTACK-START", flush=True)
import threading

worker = threading.Thread(target=lambda: threading.Event().wait(600))
worker.start()
print("waiting", flush=True)
threading.Event().wait(600)
print("ESCAPED woke up", flush=True)
