"""Attack: reach for the network, then leave it out of the run report and exit 0.

argv[1] picks how: `raw` = TCP connect and UDP sendto through `_socket` (behind the mocks, so
the runtime records nothing); `forge` = a plain `socket.connect` (the runtime refuses and
records it), caught, then a forged `done` message listing no access written into every fd,
then os._exit(0), so the forgery is the only report; `silent` = the same connect, then every
fd closed and os._exit(0) (no report at all); `child` = a fresh interpreter started through
`_posixsubprocess` (not recorded as a process) that connects; `dns` = `_socket.getaddrinfo`;
`none` = no network at all (the control). argv[2] (optional): the loopback port to try.

Hidden program starts, no network: `exec` = `/bin/true` started through
`_posixsubprocess.fork_exec` (behind the runtime's wrappers), a normal exit with an honest-looking
report; `exec_forge` = the same, then the forged `done` with no access; `exec_silent` = the same,
then every fd closed and os._exit(0); `exec_claim` = the same start, then a forged `done` that
lists no access but counts 5 starts and 5 forks in `extra`; `posix_spawn` = libc's posix_spawn of `/bin/true` through
ctypes; `fork_hide` = `os.fork` (which the runtime records), then the `fork_exec` from the forked
child. Honest controls: `honest` = `subprocess.run(["true"])` twice; `threads` = eight threads;
`mpfork` = a multiprocessing pool with the `fork` start method; `forkexec` = `os.fork`, then
`os.execv("/bin/true")` in the child (recorded there, counted where the report is written).
"""

print("ATTACK-START", flush=True)
import json
import os
import sys

mode = sys.argv[1]
port = int(sys.argv[2]) if len(sys.argv) > 2 else 9


def raw_attempts() -> None:
    import _socket

    for kind, address in ((_socket.SOCK_STREAM, ("127.0.0.1", port)), (_socket.SOCK_DGRAM, ("10.0.0.1", 53))):
        try:
            sock = _socket.socket(_socket.AF_INET, kind)
            if kind == _socket.SOCK_STREAM:
                sock.connect(address)
            else:
                sock.sendto(b"hidden", address)
        except OSError:
            pass


def plain_connect() -> None:
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=1)
    except BaseException:  # the runtime's refusal or the kernel's, both swallowed
        pass
    import _socket

    try:
        _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM).connect(("127.0.0.1", port))
    except OSError:
        pass


def fork_exec_true() -> None:
    import _posixsubprocess

    args = [b"/bin/true"]
    errpipe_read, errpipe_write = os.pipe()
    pid = _posixsubprocess.fork_exec(
        args, args, True, (errpipe_write,), None, None,
        -1, -1, -1, -1, -1, -1, errpipe_read, errpipe_write,
        True, False, -1, None, None, None, -1, None, False,
    )
    os.close(errpipe_write)
    os.close(errpipe_read)
    os.waitpid(pid, 0)


def spawn_true() -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    pid = ctypes.c_int()
    argv = (ctypes.c_char_p * 2)(b"/bin/true", None)
    envp = (ctypes.c_char_p * 1)(None)
    assert libc.posix_spawn(ctypes.byref(pid), b"/bin/true", None, None, argv, envp) == 0
    os.waitpid(pid.value, 0)


def square(n: int) -> int:
    return n * n


if mode in ("exec", "exec_forge", "exec_silent", "exec_claim"):
    fork_exec_true()
elif mode == "fork_hide":
    child = os.fork()
    if child == 0:
        fork_exec_true()
        os._exit(0)
    os.waitpid(child, 0)
elif mode == "posix_spawn":
    spawn_true()
elif mode == "honest":
    import subprocess

    subprocess.run(["true"], check=True)
    subprocess.run(["true"], check=True)
elif mode == "threads":
    import threading

    workers = [threading.Thread(target=square, args=(n,)) for n in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
elif mode == "mpfork" and __name__ == "__main__":
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(2) as pool:
        print(pool.map(square, [1, 2, 3]))
elif mode == "forkexec":
    child = os.fork()
    if child == 0:
        os.execv("/bin/true", ["true"])
    os.waitpid(child, 0)
elif mode == "raw":
    raw_attempts()
elif mode == "dns":
    import _socket

    try:
        _socket.getaddrinfo("example.com", 80)
    except OSError:
        pass
elif mode == "child":
    import _posixsubprocess

    code = f"import _socket\ntry: _socket.socket().connect(('127.0.0.1', {port}))\nexcept OSError: pass\n"
    args = [os.fsencode(sys.executable), b"-c", code.encode()]
    errpipe_read, errpipe_write = os.pipe()
    pid = _posixsubprocess.fork_exec(
        args, [args[0]], True, (errpipe_write,), None, None,
        -1, -1, -1, -1, -1, -1, errpipe_read, errpipe_write,
        True, False, -1, None, None, None, -1, None, False,
    )
    os.close(errpipe_write)
    os.close(errpipe_read)
    os.waitpid(pid, 0)
elif mode in ("forge", "silent"):
    plain_connect()
if mode in ("forge", "exec_forge", "exec_claim"):
    done = {
        "phase": "done", "exit_code": 0, "status": "passed", "exception": None, "detail": "",
        "accesses": [], "layers": [], "seconds": 0.0, "setup_seconds": 0.0, "extra": {},
    }
    if mode == "exec_claim":
        done["extra"] = {"processes": {"starts": 5, "forks": 5}}
    for fd in range(3, 1024):
        try:
            os.write(fd, (json.dumps(done) + "\n").encode())
        except OSError:
            pass
    os._exit(0)
if mode in ("silent", "exec_silent"):
    sys.stdout.flush()
    os.closerange(0, 1024)
    os._exit(0)
print("done", mode)
