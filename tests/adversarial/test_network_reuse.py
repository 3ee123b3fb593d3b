"""A batch lane keeps one empty network namespace across its candidates: nothing a candidate does
in it reaches the next one. The attack tries every way to make a socket (every family and type,
raw syscalls, garbage in the upper bits, the x32 ABI, io_uring, a name bound on the one pair it
may make); the probe after it, and the pool reading the namespace from outside before each
reuse, must find the namespace as it was made."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import socket
from typing import Any

import pytest

from automock.sandbox.batch.lanenets import LaneNetworks
from automock.sandbox.kernel import netns

from .harness import candidate_source

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0, reason="a lane's namespace is made by the pool as root"
)

ROUNDS = 5


def _line(stdout: str, mark: str) -> Any:
    for line in stdout.splitlines():
        if line.startswith(mark + " "):
            return json.loads(line[len(mark) + 1 :])
    raise AssertionError(f"no {mark} line in\n{stdout}")


def _network_layer(result: Any) -> dict[str, Any]:
    layers = [x.to_dict() if hasattr(x, "to_dict") else x for x in result.layers]
    return next(layer for layer in layers if layer["name"] == "network")


def test_no_socket_of_any_kind_leaves_a_trace_for_the_next_candidate() -> None:
    from automock import execute_many

    attack, probe = candidate_source("net_every_family"), candidate_source("net_trace_probe")
    results = execute_many([attack, probe] * ROUNDS, workers=1, timeout=20)
    made = netns.EmptyNetwork.create()  # what a namespace nobody used reads, from outside
    try:
        fresh = {name: text.decode() for name, text in made.contents().items()}
    finally:
        made.close()
    for attacked, probed in zip(results[::2], results[1::2], strict=True):
        assert attacked.status == "passed", (attacked.status, attacked.detail, attacked.stderr)
        assert _line(attacked.stdout, "MADE") == [], attacked.stdout
        # the calls reached the kernel: the pair asyncio needs was made
        assert _line(attacked.stdout, "ALLOWED") == ["socketpair(1, 1)", "socketpair(1, 5)"]
        assert _line(attacked.stdout, "TRIED") == 46 * 16 + 2, attacked.stdout
        view = _line(probed.stdout, "NETVIEW")
        seen = {name: netns.comparable(name, text.encode()).decode() for name, text in view.items()}
        assert seen == fresh, (seen, fresh)
    layers = [_network_layer(result) for result in results]
    assert all(layer["active"] and "seen from outside" in layer["detail"] for layer in layers)
    # the pool reads the namespace before each reuse and makes a new one if anything changed:
    # a namespace per lane (4: one worker, one spare, two dying) and none made again
    first_uses = [layer for layer in layers if "(candidate 1 in it)" in layer["detail"]]
    assert 1 <= len(first_uses) <= 4, [layer["detail"] for layer in layers]


def _child_in(net: netns.EmptyNetwork, work: Any) -> tuple[int, int]:
    """A child that joins ``net``, runs ``work()`` and waits for a byte before it exits;
    (its pid, the fd that releases it)."""
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            assert netns.join(os.dup(net.fd))
            kept = work()
            os.write(ready_w, b"r")
            os.read(go_r, 1)
            del kept
            code = 0
        finally:
            os._exit(code)
    os.close(ready_w)
    os.close(go_r)
    assert os.read(ready_r, 1) == b"r"
    os.close(ready_r)
    return pid, go_w


def _release(child: tuple[int, int]) -> None:
    pid, go = child
    os.write(go, b"g")
    os.close(go)
    os.waitpid(pid, 0)


def _send_nowhere() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp, contextlib.suppress(OSError):
        udp.sendto(b"x", ("10.0.0.1", 9))  # unreachable: the namespace counts it


def _bound_pair() -> Any:
    pair = socket.socketpair()
    name = b"\x01\x00\x00automock-test-trace"
    buffer = ctypes.create_string_buffer(name, len(name))
    assert ctypes.CDLL(None).bind(pair[0].fileno(), buffer, len(name)) == 0
    return pair


def test_the_pool_finds_a_trace_and_makes_a_new_namespace() -> None:
    """The check before a reuse can fail: a counter that moved and a socket still open (here
    made without the candidates' filter) are seen, and the lane gets a new namespace."""
    lanes = LaneNetworks(enabled=True)
    try:
        first = lanes.for_lane(0)
        assert first is not None
        assert lanes.for_lane(0) is first and lanes.reused == 1  # untouched: reused
        _release(_child_in(first, _send_nowhere))
        assert first.changed() == ["snmp"]
        second = lanes.for_lane(0)
        assert second is not None and second is not first and lanes.renewed == 1
        child = _child_in(second, _bound_pair)
        assert "unix" in second.changed()
        _release(child)
        assert second.pristine()  # closed with its process: gone from the namespace
    finally:
        lanes.close()


def test_runs_that_allow_the_network_do_not_reuse_a_namespace() -> None:
    from automock import execute_many

    results = execute_many(["print('ok')"] * 3, workers=1, allow_network=True)
    for result in results:
        assert result.status == "passed", result.detail
        layer = _network_layer(result)
        assert not layer["active"] and "allowed" in layer["detail"], layer


def test_fresh_network_gives_each_candidate_a_new_namespace_with_sockets() -> None:
    """``BatchSettings(fresh_network=True)``: the namespace is not kept, so sockets are allowed
    in it, and each candidate still starts from zero (its own attempts move the counters)."""
    from automock.sandbox.batch.candidates import as_candidates
    from automock.sandbox.batch.pool import WorkerPool
    from automock.sandbox.batch.task import BatchSettings

    source = candidate_source("persist_network")
    with WorkerPool(BatchSettings(timeout=10, fresh_network=True), workers=1) as pool:
        results = pool.run(as_candidates([source] * 3))
    for result in results:
        assert _line(result.stdout, "REFUSED") == [], result.stdout
        before, after = _line(result.stdout, "NETBEFORE"), _line(result.stdout, "NETAFTER")
        assert all(count == 0 for count in before.values()), before
        assert after != before, after
        layer = _network_layer(result)
        assert layer["active"] and layer["detail"].startswith("new network namespace"), layer


def test_a_pairs_processes_are_in_their_lanes_namespace_too() -> None:
    """A pair's child gets more fds from the pool (its candidate's code pipe) than a program's:
    it too is seen from outside in its lane's namespace, and its candidate can make no socket."""
    from automock import execute_many

    code = (
        "import socket\n"
        "def made():\n"
        "    try:\n"
        "        socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()\n"
        "    except OSError:\n"
        "        return False\n"
        "    return True\n"
    )
    results = execute_many([(code, "assert made() is False\n")] * 4, workers=1, timeout=20)
    for result in results:
        assert result.status == "passed", (result.status, result.detail)
        layer = _network_layer(result)
        assert layer["active"] and "seen from outside" in layer["detail"], layer
