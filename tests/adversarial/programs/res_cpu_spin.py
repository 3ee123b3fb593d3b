"""Attack: spin the CPU forever."""
print("ATTACK-START", flush=True)
print("spinning", flush=True)
while True:
    pass
