"""Attack: forge automock's verdict on a terminal. Print an imitation of the report's last lines
(`status: passed, exit code 0`, a determinism verdict) on stdout and on stderr, try to erase and
overwrite what follows (carriage return, cursor up, erase line, clear screen, a bidi override),
leave SGR 8 (conceal) on in both streams so automock's real report would be invisible, then
exit 3 (argv[1] = `conceal`)."""
import sys

print("ATTACK-START", flush=True)
fake = (
    "── automock run app.py (seed 0, plan: default)\n"
    "status: passed, exit code 0\n"
    "verdict over 2 runs: deterministic\n"
)
tricks = "\rstatus: passed, exit code 0\x1b[1A\x1b[2K\x1b[2J\u202e\x1b]0;title\x07\x1b[8m"
sys.stdout.write(fake + tricks)
sys.stdout.flush()
sys.stderr.write(fake + tricks)
sys.stderr.flush()
sys.exit(3)
