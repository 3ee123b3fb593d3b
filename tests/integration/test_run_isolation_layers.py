"""enter_isolation reports exactly what is in force: each active layer holds, each inactive one is open."""

from __future__ import annotations

import encodings.idna  # noqa: F401 - the unprivileged child cannot import codecs from /root
import json
import os
import socket
import tempfile
from pathlib import Path

import pytest

from automock.sandbox.kernel.isolation import SANDBOX_UID, Limits, enter_isolation
from automock.sandbox.kernel.uids import RUN_UID_BASE, RUN_UIDS

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or os.geteuid() != 0, reason="needs root to simulate both users"
)


def _probe(as_uid: int | None, port: int, outside: Path, allow_network: bool) -> dict:
    """Fork, optionally become ``as_uid``, enter isolation, try to escape; report as JSON."""
    work = Path(tempfile.mkdtemp(prefix="automock-layers-", dir="/var/tmp"))
    os.chown(work, SANDBOX_UID, SANDBOX_UID)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        result: dict = {}
        try:
            os.close(read_fd)
            if as_uid is not None:
                os.setgid(as_uid)
                os.setuid(as_uid)
            layers = enter_isolation(Limits(), allow_network=allow_network, workdir=work)
            result["layers"] = {layer.name: [layer.active, layer.detail] for layer in layers}
            try:
                socket.create_connection(("127.0.0.1", port), timeout=2).close()
                result["connected"] = True
            except OSError:
                result["connected"] = False
            try:
                (outside / f"escape-{as_uid}").write_text("x")
                result["wrote_outside"] = True
            except OSError:
                result["wrote_outside"] = False
            try:
                socket.socket(socket.AF_UNIX).close()
                result["unix_socket"] = True
            except OSError:
                result["unix_socket"] = False
            result["hostname"] = os.uname().nodename
        except BaseException as exc:
            result["error"] = repr(exc)
        os.write(write_fd, json.dumps(result).encode())
        os._exit(0)
    os.close(write_fd)
    chunks = []
    while chunk := os.read(read_fd, 65536):
        chunks.append(chunk)
    os.close(read_fd)
    os.waitpid(pid, 0)
    import shutil

    shutil.rmtree(work, ignore_errors=True)
    return json.loads(b"".join(chunks))


@pytest.mark.parametrize(
    ("as_uid", "allow_network"),
    [(None, False), (SANDBOX_UID, False), (None, True)],
    ids=["root", "unprivileged", "root-allow-network"],
)
def test_every_claim_matches_what_holds(
    as_uid: int | None, allow_network: bool, loopback_server: tuple[int, list[object]]
) -> None:
    port, accepted = loopback_server
    outside = Path(tempfile.mkdtemp(prefix="automock-outside-", dir="/var/tmp"))
    outside.chmod(0o777)
    try:
        result = _probe(as_uid, port, outside, allow_network)
        left_behind = sorted(p.name for p in outside.iterdir())
    finally:
        import shutil

        shutil.rmtree(outside, ignore_errors=True)

    assert "error" not in result, result
    layers = result["layers"]
    network_on, filesystem_on = layers["network"][0], layers["filesystem"][0]
    assert result["connected"] is (not network_on), layers["network"]
    assert bool(accepted) is (not network_on)
    assert result["wrote_outside"] is (not filesystem_on), layers["filesystem"]
    assert bool(left_behind) is (not filesystem_on)
    assert all(detail for _, detail in layers.values())
    assert result["unix_socket"] is (not layers["seccomp"][0]), layers["seccomp"]
    assert (result["hostname"] == "automock") is layers["uts"][0], layers["uts"]
    if allow_network:
        assert not network_on and "--allow-network" in layers["network"][1]
    if as_uid is None:
        assert all(active for name, (active, _) in layers.items() if name != "network"), layers
    else:
        assert layers["uid"] == [False, layers["uid"][1]]
        assert "not root" in layers["uid"][1]
        assert "userns" in layers


_PROBE = """
import _socket, ctypes, json, os, resource, select, sys
port, outside, marker = int(sys.argv[1]), sys.argv[2], sys.argv[3]
facts = {"uid": os.getuid(), "pgid": os.getpgid(0)}
try:
    raw = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)  # under the runtime's mocks
    raw.settimeout(2)
    raw.connect(("127.0.0.1", port))
    facts["connected"] = True
except OSError:
    facts["connected"] = False
try:
    open(os.path.join(outside, "escape"), "w").close()
    facts["wrote_outside"] = True
except OSError:
    facts["wrote_outside"] = False
for name in ("CPU", "AS", "NOFILE"):
    facts[name] = resource.getrlimit(getattr(resource, "RLIMIT_" + name))[0]
if os.fork() == 0:  # a daemon that leaves the process group
    os.setsid()
    ctypes.CDLL(None).prctl(15, marker.encode()[:15], 0, 0, 0)
    select.select([], [], [], 60)
    os._exit(0)
print(json.dumps(facts))
"""


@pytest.mark.parametrize("allow_network", [False, True], ids=["default", "allow-network"])
def test_run_report_layers_hold(
    allow_network: bool,
    loopback_server: tuple[int, list[object]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every layer `automock run` reports `on` holds, checked from outside the sandbox: the
    server saw no connection, no file appeared outside, no daemon outlived the run; and the
    uid and limits the report names are the ones the program ran with."""
    import secrets

    from automock.cli import main
    from tests.adversarial.harness import reap, survivors

    port, accepted = loopback_server
    outside = Path(tempfile.mkdtemp(prefix="automock-outside-", dir="/var/tmp"))
    outside.chmod(0o777)
    marker = "amk" + secrets.token_hex(6)
    program = tmp_path / "probe.py"
    program.write_text(_PROBE)
    extra = ["--allow-network"] if allow_network else []
    try:
        code = main(
            [
                "run",
                "--json",
                "--no-save",
                *extra,
                str(program),
                "--",
                str(port),
                str(outside),
                marker,
            ]
        )
        report = json.loads(capsys.readouterr().out)
        left = survivors(marker, grace=1.0)
        reap(left)
        wrote = (outside / "escape").exists()
    finally:
        import shutil

        shutil.rmtree(outside, ignore_errors=True)
    # the raw connect is hidden from the runtime; the kernel's counters in the run's own
    # network namespace still saw it, so the run is not passed (with the network allowed
    # there is no namespace of its own to read and the attempt is the person's choice)
    assert code == (0 if allow_network else 5), report["stderr"]
    assert bool(report["hidden_accesses"]) is not allow_network, report["hidden_accesses"]
    facts = json.loads(report["stdout"])
    layers = {layer["name"]: layer for layer in report["layers"]}
    assert layers["network"]["active"] is not allow_network
    assert facts["connected"] is bool(accepted) is allow_network
    assert layers["filesystem"]["active"] and not wrote and not facts["wrote_outside"]
    assert layers["pid"]["active"] and left == []
    assert layers["uid"]["active"] and f"uid {facts['uid']} " in layers["uid"]["detail"]
    assert RUN_UID_BASE <= facts["uid"] < RUN_UID_BASE + RUN_UIDS  # this run's own uid
    assert "this run's own" in layers["uid"]["detail"]
    detail = layers["rlimits"]["detail"]
    assert layers["rlimits"]["active"]
    assert f"cpu={facts['CPU']}," in detail and f"nofile={facts['NOFILE']}," in detail
    assert f"as={facts['AS'] // (1 << 20)}MiB" in detail
    assert layers["session"]["active"]


def test_observation_reports_off_what_is_not_in_force() -> None:
    """A process outside every namespace, with no limits, is seen as such whatever the
    sandbox's `started` line claimed; the runtime claim is labelled as the sandbox's."""
    import subprocess
    import sys

    from automock.sandbox.run.observe import CLAIMED, observe

    names = ["session", "network", "ipc", "uts", "filesystem", "pid", "rlimits", "uid", "seccomp"]
    names += ["time", "hostfacts", "runtime"]
    claimed = [{"name": n, "active": True, "detail": "claimed"} for n in names]
    proc = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(30)"], start_new_session=True
    )
    try:
        layers = {
            layer.name: layer
            for layer in observe(
                proc.pid,
                limits=Limits(),
                allow_network=False,
                workdir=Path("/nonexistent"),
                claimed=claimed,
            )
        }
    finally:
        proc.kill()
        proc.wait()
    assert layers["session"].active  # start_new_session: its own group, which we could kill
    for name in names[1:-1]:  # a process with the host's clocks and /proc: time, hostfacts OFF
        assert not layers[name].active, layers[name]
        assert "claimed" not in layers[name].detail
    assert "not in force" in layers["rlimits"].detail
    assert layers["runtime"].active and CLAIMED in layers["runtime"].detail
