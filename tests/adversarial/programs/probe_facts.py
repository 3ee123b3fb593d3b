"""Not an attack: print the facts docs/security.md quotes (credentials, namespaces, limits, what is readable)."""
print("ATTACK-START", flush=True)
import os
import resource

status = {}
with open("/proc/self/status") as handle:
    for line in handle:
        key, _, value = line.partition(":")
        status[key] = value.strip()
for key in ("Uid", "Gid", "Groups", "CapEff", "CapBnd", "NoNewPrivs", "Seccomp"):
    print(f"{key}: {status.get(key)}")
print("pid:", os.getpid(), "ppid:", os.getppid(), "visible pids:", sum(e.isdigit() for e in os.listdir("/proc")))
for name in ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_FSIZE", "RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_CORE"):
    print(name, resource.getrlimit(getattr(resource, name)))
for path in ("/etc/passwd", "/etc/hostname", "/root", "/work", "/home"):
    try:
        if os.path.isdir(path):
            print(path, "listable:", len(os.listdir(path)), "entries")
        else:
            with open(path) as handle:
                print(path, "readable:", len(handle.read()), "bytes")
    except OSError as exc:
        print(path, "->", exc.strerror)
import socket
print("interfaces:", socket.if_nameindex())
print("cwd:", os.getcwd(), "HOME:", os.environ.get("HOME"), "env keys:", sorted(os.environ))
