"""Attack: sleep past the timeout with select(), which no virtual clock patches."""
print("ATTACK-START", flush=True)
import select

print("sleeping in select", flush=True)
select.select([], [], [], 600)
print("ESCAPED woke up", flush=True)
