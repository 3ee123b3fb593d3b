"""Attack: spin the CPU forever."""
print("spinning", flush=True)
while True:
    pass
