"""Attack: leave state for the next run (workdir, $TMPDIR, /tmp, /dev/shm, $HOME) and report what an
earlier run left behind."""
print("ATTACK-START", flush=True)
import os
import tempfile

places = list(dict.fromkeys([".", tempfile.gettempdir(), "/tmp", "/dev/shm", os.path.expanduser("~")]))
seen, planted = [], []
for place in places:
    path = os.path.join(place, ".automock-adv-persist")
    if os.path.exists(path):
        seen.append(place)
    try:
        with open(path, "w") as handle:
            handle.write("left behind")
        planted.append(place)
    except OSError:
        pass
print("PLANTED", planted, flush=True)
print("SEEN", seen, flush=True)
