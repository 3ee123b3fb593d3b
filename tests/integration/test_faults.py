"""Faults: a parent killed mid-batch, corrupt or truncated plan and cassette files, a full disk.

Nothing is lost or clobbered: no orphan child outlives a killed parent, the next pool sweeps the
dead one's temp dir, a bad file is named in a one-line error and left byte-for-byte unchanged,
and a failed plan write keeps the previous plan.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from automock.errors import EXIT_PLAN

REPO = Path(__file__).resolve().parents[2]
PROGRAM = "import random\nprint(random.random())\n"


def _cli(*argv: str) -> tuple[int, str, str]:
    from automock.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _live_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text(errors="replace")
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            state = stat[stat.rfind(")") + 2 : stat.rfind(")") + 3]
            if state not in ("Z", "X") and (marker in stat or marker in cmdline):
                found.append(int(entry))
    return found


def _wait_for(predicate: Callable[[], object], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


# -------------------------------------------------------------- parent killed mid-batch


@pytest.mark.slow
def test_parent_killed_mid_batch_leaves_no_orphans_and_next_start_sweeps(tmp_path: Path) -> None:
    marker = "amkf" + secrets.token_hex(5)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = {**os.environ, "TMPDIR": str(tmpdir)}
    slow = (
        f"import ctypes, select; ctypes.CDLL(None).prctl(15, {marker!r}.encode(), 0, 0, 0)\n"
        "print('started', flush=True)\n"
        "select.select([], [], [], 600)\n"
    )
    script = textwrap.dedent(
        f"""
        from automock import execute_many
        execute_many([{slow!r}] * 6, workers=2, timeout=120)
        """
    )
    batch = subprocess.Popen(
        [sys.executable, "-c", script], cwd=REPO, env=env, start_new_session=True
    )
    try:
        assert _wait_for(lambda: len(_live_with(marker)) >= 2, 30), "the batch never started"
        pool_dirs = list(tmpdir.glob("automock-batch-*"))
        assert pool_dirs, list(tmpdir.iterdir())
        os.kill(batch.pid, signal.SIGKILL)
        batch.wait(10)
        # children die with their parent (PR_SET_PDEATHSIG / pid namespace), none orphaned
        assert _wait_for(lambda: not _live_with(marker), 5), _live_with(marker)
        assert all(d.exists() for d in pool_dirs)  # SIGKILL gave it no chance to clean up
        # the next start sweeps the dead pool's directory
        nxt = subprocess.run(
            [sys.executable, "-c", "from automock import execute_many; execute_many(['pass'])"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert nxt.returncode == 0, nxt.stderr[-2000:]
        assert not any(d.exists() for d in pool_dirs), list(tmpdir.iterdir())
        assert not list(tmpdir.glob("automock-batch-*")), list(tmpdir.iterdir())
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(batch.pid, signal.SIGKILL)
        for pid in _live_with(marker):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


# -------------------------------------------------------------- corrupt plan / cassette

CORRUPT_PLANS = {
    "truncated": '{"automock": 1, "seed": 3, "entries": [{"line": 1, "col": 0, "kind": "ti',
    "not_json": "automock: yes\nseed: 3\n",
    "empty": "",
    "binary": "\x00\x01\x02\xff",
    "wrong_type": '{"automock": 1, "seed": "three", "entries": []}',
    "wrong_version": '{"automock": 99, "entries": []}',
}


@pytest.mark.parametrize("kind", sorted(CORRUPT_PLANS))
def test_corrupt_plan_is_named_and_never_overwritten(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from automock.plan.io import load_plan, plan_path_for

    monkeypatch.chdir(tmp_path)
    src = tmp_path / "prog.py"
    src.write_text(PROGRAM)
    plan_path = plan_path_for(src)
    if not plan_path.is_absolute():
        plan_path = tmp_path / plan_path
    plan_path.parent.mkdir(parents=True, exist_ok=True)
    plan_path.write_bytes(CORRUPT_PLANS[kind].encode("latin-1"))
    before = plan_path.read_bytes()
    stamp = plan_path.stat().st_mtime_ns

    from automock.errors import PlanError

    with pytest.raises(PlanError) as info:
        load_plan(plan_path)
    assert plan_path.name in str(info.value)
    assert "\n" not in str(info.value)

    for argv in (["run", str(src)], ["draft", str(src)]):
        code, out, err = _cli(*argv)
        assert code == EXIT_PLAN, (argv, code, out, err)
        lines = [ln for ln in err.splitlines() if ln.startswith("automock:")]
        assert len(lines) == 1 and plan_path.name in lines[0], (argv, err)
        assert "Traceback" not in err
        assert plan_path.read_bytes() == before, argv
        assert plan_path.stat().st_mtime_ns == stamp, argv


@pytest.mark.parametrize(
    "content",
    [
        "interactions:\n- request: {method: GET, uri: 'http://x/'\n",  # unclosed flow mapping
        "\x00\x00binary\xff",
        "interactions: 42\n",
    ],
    ids=["truncated", "binary", "wrong_shape"],
)
def test_corrupt_cassette_is_named_and_never_overwritten(
    content: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from automock.plan.io import plan_path_for, save_plan
    from automock.plan.model import CassetteSettings, Plan

    monkeypatch.chdir(tmp_path)
    src = tmp_path / "client.py"
    src.write_text(
        "import urllib.request\nprint(urllib.request.urlopen('http://api.test/x').read())\n"
    )
    cassette = tmp_path / "fixtures" / "client.yaml"
    cassette.parent.mkdir(parents=True, exist_ok=True)
    cassette.write_bytes(content.encode("latin-1"))
    before = cassette.read_bytes()
    # relative, as drafted plans have it: the cassette travels with the workdir copy
    plan = Plan(
        source_path=str(src),
        cassette=CassetteSettings(path="fixtures/client.yaml", record_mode="none"),
    )
    save_plan(plan, plan_path_for(src), force=True)

    code, out, err = _cli("run", str(src))
    assert code == EXIT_PLAN, (code, out, err)
    assert "Traceback" not in err, err  # the program never ran with a broken cassette
    named = [ln for ln in err.splitlines() if "client.yaml" in ln and "cassette" in ln]
    assert named, (code, out, err)
    assert cassette.read_bytes() == before


# -------------------------------------------------------------- disk full

DISK_FULL_SCRIPT = """
import json, os, sys
from pathlib import Path
from automock.errors import PlanError
from automock.plan.io import load_plan, save_plan
from automock.plan.model import Plan

folder = Path(sys.argv[1])
target = folder / "prog.automock.json"
save_plan(Plan(seed=7), target)
before = target.read_bytes()
big = Plan(seed=8, env={f"VAR_{i}": "x" * 200 for i in range(400)})  # ~90 KB > 16 KiB
outcome = {"before": len(before)}
try:
    save_plan(big, target, force=True)
    outcome["error"] = None
except PlanError as exc:
    outcome["error"] = str(exc)
except BaseException as exc:
    outcome["error"] = "UNEXPECTED " + type(exc).__name__ + ": " + str(exc)
outcome["unchanged"] = target.read_bytes() == before
outcome["reloaded_seed"] = load_plan(target).seed
outcome["leftovers"] = sorted(p.name for p in folder.iterdir() if p.name != target.name)
print(json.dumps(outcome))
"""


def test_disk_full_plan_write_keeps_old_plan(tmp_path: Path) -> None:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs root and unshare(1) to mount a tiny tmpfs in a private mount namespace")
    folder = tmp_path / "tiny"
    folder.mkdir()
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size=16k tmpfs {folder}"],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {probe.stderr.strip()}")
    proc = subprocess.run(
        [
            "unshare",
            "-m",
            "sh",
            "-c",
            'mount -t tmpfs -o size=16k tmpfs "$1" && exec "$2" -c "$3" "$1"',
            "sh",
            str(folder),
            sys.executable,
            DISK_FULL_SCRIPT,
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    outcome = json.loads(proc.stdout.strip().splitlines()[-1])
    assert outcome["error"] and not outcome["error"].startswith("UNEXPECTED"), outcome
    assert "prog.automock.json" in outcome["error"], outcome
    assert outcome["unchanged"] is True, outcome
    assert outcome["reloaded_seed"] == 7, outcome
    assert outcome["leftovers"] == [], outcome


@pytest.mark.slow
def test_run_parent_killed_leaves_no_child_and_next_run_sweeps(tmp_path: Path) -> None:
    """``automock run`` SIGKILLed mid-run: the sandboxed program dies with it, and the workdir it
    could not remove is swept by the next ``automock run``."""
    marker = "amkr" + secrets.token_hex(5)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = {**os.environ, "TMPDIR": str(tmpdir), "PYTHONPATH": str(REPO)}
    slow = tmp_path / "slow.py"
    slow.write_text(
        f"import ctypes, select; ctypes.CDLL(None).prctl(15, {marker!r}.encode(), 0, 0, 0)\n"
        "select.select([], [], [], 600)\n"
    )
    quick = tmp_path / "quick.py"
    quick.write_text("print('hi')\n")
    run = subprocess.Popen(
        [sys.executable, "-m", "automock", "run", str(slow), "--timeout", "120"],
        cwd=tmp_path,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert _wait_for(lambda: _live_with(marker), 30), "the run never started"
        workdirs = list(tmpdir.glob("automock-run-*"))
        assert workdirs, list(tmpdir.iterdir())
        os.kill(run.pid, signal.SIGKILL)
        run.wait(10)
        assert _wait_for(lambda: not _live_with(marker), 5), _live_with(marker)
        nxt = subprocess.run(
            [sys.executable, "-m", "automock", "run", str(quick)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert nxt.returncode == 0, nxt.stderr[-2000:]
        assert not any(d.exists() for d in workdirs), list(tmpdir.iterdir())
        assert not list(tmpdir.glob("automock-run-*")), list(tmpdir.iterdir())
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
        for pid in _live_with(marker):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
