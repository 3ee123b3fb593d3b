"""Attack: ignore SIGTERM/SIGINT/SIGHUP, block them too, then wait for a signal forever."""
print("ATTACK-START", flush=True)
import signal

for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM, signal.SIGXCPU):
    signal.signal(sig, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
print("paused", flush=True)
signal.pause()
print("ESCAPED woke up", flush=True)
