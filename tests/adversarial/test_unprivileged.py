"""The same attacks on automock's non-root path, where the namespaces come from an unprivileged
user namespace (simulated here as uid 1000 in a user namespace, run from root)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .harness import LoopbackServer, program, survivors

REPO = Path(__file__).resolve().parents[2]


def _run_unprivileged(name: str, *args: str, timeout: float = 10) -> dict[str, Any]:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs unshare(1) and root to simulate an unprivileged user")
    code = (
        "import json\n"
        "from automock.pipeline.run import run_file\n"
        f"r = run_file({str(program(name))!r}, args={args!r}, timeout={timeout})\n"
        "print(json.dumps(r.to_dict()))\n"
    )
    cmd = ["unshare", "-U", "--map-user=1000", "--map-group=1000", sys.executable, "-c", code]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    layers = {layer["name"]: layer["active"] for layer in report["layers"]}
    if not layers.get("userns"):
        pytest.skip("unprivileged user namespaces are refused here (reported as inactive)")
    assert "ATTACK-START" in report["stdout"], report
    return report


@pytest.mark.parametrize("name", ["net_socket", "net_ctypes", "net_python_c"])
def test_network_escape_unprivileged(name: str, server: LoopbackServer) -> None:
    report = _run_unprivileged(name, str(server.port))
    assert server.accepted == [], report["stdout"]
    assert "ESCAPED" not in report["stdout"]


def test_daemons_unprivileged(marker: str) -> None:
    report = _run_unprivileged("daemon_escape", marker, timeout=5)
    assert survivors(marker) == [], report["stdout"]


def test_secrets_unprivileged(secret_env: dict[str, str]) -> None:
    report = _run_unprivileged("secrets_env", secret_env["secret"])
    assert secret_env["secret"] not in report["stdout"] + report["stderr"]
    assert "ESCAPED" not in report["stdout"]


@pytest.mark.slow
def test_fork_bomb_unprivileged(marker: str) -> None:
    report = _run_unprivileged("res_fork_bomb", marker, timeout=3)
    assert "ESCAPED" not in report["stdout"]
    assert report["status"] in {"timeout", "violation"}, report["status"]
    assert survivors(marker) == []


def test_hidden_start_unprivileged_is_not_claimed() -> None:
    """Not root, the process-events connector refuses the parent: the report says the starts
    were not observed (null, with why), never a count or a guess, and claims nothing hidden."""
    report = _run_unprivileged("report_hide", "exec", timeout=15)
    kernel = report["runs"][0]["kernel"] if "runs" in report else report["kernel"]
    assert kernel["program_starts"] is None and kernel["process_forks"] is None, kernel
    assert kernel["starts_note"].startswith("not observed"), kernel
    assert "program start" not in kernel["hidden"], kernel
