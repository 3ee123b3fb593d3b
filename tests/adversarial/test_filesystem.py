"""Writes outside the workdir: absolute paths, '..' climbs and symlinks must leave nothing behind.

The target directory is made world-writable on purpose (like /tmp), so the test checks confinement
rather than just the unprivileged uid's lack of permission.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import (
    NOT_OK,
    Attack,
    Outcome,
    batch_attack,
    candidate_source,
    cli_attack,
    program,
    run_attack,
)


@pytest.fixture(params=["/tmp", "/var/tmp"])
def outside(request: pytest.FixtureRequest) -> Iterator[Path]:
    """A directory the test made, world-writable like /tmp itself, so only real confinement (not
    merely the child's unprivileged uid) keeps the child out. Under /tmp (which the sandbox may
    replace by a private tmpfs) and under /var/tmp (on the root filesystem)."""
    if not os.path.isdir(request.param):
        pytest.skip(f"{request.param} does not exist here")
    target = Path(tempfile.mkdtemp(prefix="automock-adv-outside-", dir=request.param))
    target.chmod(0o1777)
    try:
        yield target
    finally:
        shutil.rmtree(target, ignore_errors=True)


ATTACKS = [run_attack, cli_attack, batch_attack]
IDS = ["run", "cli", "batch"]


def _contained(outcome: Outcome, path: Path) -> None:
    assert not path.exists(), f"{path} was written\n{outcome.explain()}"
    assert not outcome.escaped_claim, outcome.explain()
    assert outcome.status in NOT_OK, outcome.explain()


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_absolute_write_outside(attack: Attack, outside: Path) -> None:
    target = outside / "abs.txt"
    _contained(attack("fs_write_absolute", str(target)), target)


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
@pytest.mark.parametrize("folder", ["/tmp", "/var/tmp", "/dev/shm"])
def test_absolute_write_into_shared_tmp(attack: Attack, folder: str) -> None:
    """World-writable sticky dirs: the classic place a program drops files. The write may succeed
    inside a private tmpfs; what matters is that nothing appears in the real one."""
    if not os.path.isdir(folder):
        pytest.skip(f"{folder} does not exist here")
    target = Path(folder) / f"automock-adv-{secrets.token_hex(6)}.txt"
    try:
        attack("fs_write_absolute", str(target))
        assert not target.exists(), f"{target} was written"
    finally:
        target.unlink(missing_ok=True)


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_dotdot_climb_outside(attack: Attack, outside: Path) -> None:
    target = outside / "dotdot.txt"
    _contained(attack("fs_write_dotdot", str(target)), target)


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_symlink_out_of_workdir(attack: Attack, outside: Path) -> None:
    target = outside / "via-link.txt"
    _contained(attack("fs_symlink", str(outside), "via-link.txt"), target)


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_parent_of_workdir_is_cleaned(attack: Attack) -> None:
    """Writing one level above the workdir is either refused or removed with the sandbox's temp root."""
    outcome = attack("fs_write_parent")
    line = next((ln for ln in outcome.stdout.splitlines() if ln.startswith("TARGET ")), "")
    assert line, outcome.explain()
    target = Path(line.split(" ", 1)[1])
    assert not target.exists(), f"{target} survived the run\n{outcome.explain()}"


def test_script_inside_the_temp_dir_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A script that lives in $TMPDIR (e.g. /tmp/x.py) must not make the workdir copy itself."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    script = tmp_path / "in_tmp.py"
    script.write_text("import os\nprint('ATTACK-START', sorted(os.listdir('.')))\n")
    from automock.pipeline.run import run_file

    report = run_file(script, timeout=10)
    assert report.status == "passed", (report.status, report.stderr[-500:])
    assert "in_tmp.py" in report.stdout
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("automock-run-")]


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_user_namespace_cannot_remount_writable(attack: Attack, outside: Path) -> None:
    """Inside a fresh user namespace the child holds every capability, but the read-only mounts it
    inherited are locked: remounting them writable must fail, and nothing appears outside."""
    target = outside / "userns.txt"
    outcome = attack("ns_userns_remount", str(target))
    assert not target.exists(), f"{target} was written\n{outcome.explain()}"
    assert "remount / rw: ok" not in outcome.stdout, outcome.explain()


def _unprivileged(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` as uid 1000 inside a user namespace: automock's non-root path, where its
    namespaces come from an unprivileged user namespace instead of root."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs unshare(1) and root to simulate an unprivileged user")
    repo = Path(__file__).resolve().parents[2]
    cmd = ["unshare", "-U", "--map-user=1000", "--map-group=1000", sys.executable, "-c", code]
    return subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("via", ["run", "batch"])
def test_unprivileged_path_mounts_cannot_be_undone(via: str, outside: Path) -> None:
    """Without root the sandbox builds its namespaces inside a user namespace, where the program
    would hold the capabilities that made the mounts read-only; it must not be able to undo them."""
    target = outside / "unpriv.txt"
    prog = str(program("ns_userns_remount"))
    if via == "run":
        code = (
            "from automock.pipeline.run import run_file\n"
            f"r = run_file({prog!r}, args=({str(target)!r},), timeout=10)\n"
            "print(r.stdout); print([(l.name, l.active) for l in r.layers])\n"
        )
    else:
        code = (
            "from automock import execute_many\n"
            f"r = execute_many([{candidate_source('ns_userns_remount', str(target))!r}], timeout=10)[0]\n"
            "print(r.stdout); print(r.layers)\n"
        )
    proc = _unprivileged(code)
    assert proc.returncode == 0, proc.stderr[-2000:]
    if "('filesystem', False)" in proc.stdout or "'filesystem', 'active': False" in proc.stdout:
        pytest.skip("no mount namespace on the unprivileged path here (reported as inactive)")
    assert "ATTACK-START" in proc.stdout, proc.stdout + proc.stderr[-1000:]
    assert not target.exists(), f"{target} was written\n{proc.stdout}"


def test_special_files_next_to_the_script(tmp_path: Path) -> None:
    """A FIFO or a unix socket in the script's directory is skipped by the workdir copy (copying a
    FIFO would block or fail), and the run goes on."""
    import socket

    from automock.pipeline.run import run_file

    script = tmp_path / "prog.py"
    script.write_text("import os\nprint('ATTACK-START', sorted(os.listdir('.')))\n")
    os.mkfifo(tmp_path / "pipe")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "s.sock"))
    try:
        report = run_file(script, timeout=10)
    finally:
        sock.close()
    assert report.status == "passed", (report.status, report.stderr[-500:])
    assert "'prog.py'" in report.stdout and "pipe" not in report.stdout


LOOK_AROUND = """\
import os
print(sorted(n for n in os.listdir("/tmp") if n.startswith("automock-run-")))
"""
HOLD = "import select\nselect.select([], [], [], 20)\n"


def test_another_runs_workdir_is_out_of_reach_and_not_reported_writable(tmp_path: Path) -> None:
    """Each run's workdir is a tmpfs mounted on the host under /tmp; in a second run's view the
    private /tmp covers it: the program finds no other run's workdir, and the filesystem layer
    (observed from outside) does not list a covered mount as one it could not make read-only."""
    (tmp_path / "hold.py").write_text(HOLD)
    (tmp_path / "look.py").write_text(LOOK_AROUND)
    env = {**os.environ, "AUTOMOCK_SERVER": "0"}
    command = [sys.executable, "-m", "automock", "run", "--no-save", "--json"]
    holder = subprocess.Popen(
        [*command, "hold.py", "--timeout", "30"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL
    )
    try:
        deadline = 200
        while not [p for p in Path("/tmp").glob("automock-run-*") if os.path.ismount(p)]:
            deadline -= 1
            assert deadline and holder.poll() is None, "the holding run never mounted its workdir"
            time.sleep(0.1)
        done = subprocess.run(
            [*command, "look.py"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        holder.kill()
        holder.wait()
    report = json.loads(done.stdout)
    assert report["status"] == "passed", done.stderr[-2000:]
    assert report["stdout"] == "[]\n", report["stdout"]
    layer = {entry["name"]: entry for entry in report["layers"]}["filesystem"]
    assert layer["active"] and "every mount read-only" in layer["detail"], layer
    assert "could not make read-only" not in layer["detail"], layer
