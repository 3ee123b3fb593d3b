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
    if allow_network:
        assert not network_on and "--allow-network" in layers["network"][1]
    if as_uid is None:
        assert all(active for name, (active, _) in layers.items() if name != "network"), layers
    else:
        assert layers["uid"] == [False, layers["uid"][1]]
        assert "not root" in layers["uid"][1]
        assert "userns" in layers
