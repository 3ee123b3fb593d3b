"""A batch lane's network namespace and cgroup are reused: nothing of one candidate may
reach the next candidate of the same lane (automock/sandbox/kernel/netns.py).

The first candidate leaves behind what a network namespace could carry: a bound UDP
port, a listening TCP port, a listening abstract Unix socket if the seccomp layer ever
let one be made, and a forked daemon that would keep them open. The next candidate of the lane (one worker, so the same lane
as soon as the first one exited) looks for each of them.
"""

from __future__ import annotations

import os

import pytest

from automock import execute_many

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists("/proc/self/ns/net"),
    reason="lane namespaces are made by the root zygote",
)

LEAVE = r"""
import os, socket, time
left = []
try:  # the seccomp layer refuses AF_UNIX sockets: if it ever lets one through, leave it
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind("\0automock-lane-leak")
    abstract.listen(8)
    left.append("abstract")
except OSError as exc:
    print("no unix socket", exc)
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp.bind(("0.0.0.0", 47001))
tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
tcp.bind(("0.0.0.0", 47002))
tcp.listen(8)
left += ["udp", "tcp"]
print("net", os.readlink("/proc/self/ns/net"))
if os.fork() == 0:  # a daemon that would keep every socket open
    os.setsid()
    while True:
        time.sleep(3600)
print("left", *left)
"""

FIND = r"""
import os, socket
print("net", os.readlink("/proc/self/ns/net"))
try:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.connect("\0automock-lane-leak")
    print("LEAK abstract socket answered")
except OSError as exc:
    print("abstract", type(exc).__name__)
for kind, port in ((socket.SOCK_DGRAM, 47001), (socket.SOCK_STREAM, 47002)):
    again = socket.socket(socket.AF_INET, kind)
    try:
        again.bind(("0.0.0.0", port))
        print("port free", port)
    except OSError as exc:
        print("LEAK port still bound", port, exc)
print("tasks", sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
"""


def _net(stdout: str) -> str:
    return next(line.split()[1] for line in stdout.splitlines() if line.startswith("net "))


def test_nothing_of_a_candidate_survives_in_its_lane_namespace() -> None:
    # one worker: a few lanes (running, spare, exiting) take turns, so later candidates
    # run in the very namespace the first one left its sockets and daemon in
    results = execute_many([LEAVE] + [FIND] * 6, workers=1, timeout=10.0)
    leave, *finds = results
    assert leave.status == "passed", leave.stderr
    assert "left" in leave.stdout and "udp tcp" in leave.stdout, leave.stdout
    for found in finds:
        assert found.status == "passed", found.stderr
        assert "LEAK" not in found.stdout, found.stdout
        assert "abstract PermissionError" in found.stdout or (
            "abstract ConnectionRefusedError" in found.stdout
        ), found.stdout
        assert "port free 47001" in found.stdout and "port free 47002" in found.stdout
        assert "tasks [1]" in found.stdout, found.stdout  # the daemon died with its namespace
    layer = {d["name"]: d for d in leave.layers}["network"]
    assert layer["active"], layer
    if "lane" in layer["detail"]:  # the namespace really was reused, and carried nothing
        same = [f for f in finds if _net(f.stdout) == _net(leave.stdout)]
        assert same, [_net(r.stdout) for r in results]
