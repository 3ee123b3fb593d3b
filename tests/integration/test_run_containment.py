"""The sandbox holds: network, filesystem, environment, CPU, memory and process bombs."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from automock.cli import main
from automock.pipeline.run import run_file
from automock.plan.model import Plan
from automock.sandbox.kernel.isolation import Limits


def _run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["run", "--json", *argv])
    return code, json.loads(capsys.readouterr().out)


NETWORK_PROGRAM = """
import ctypes, socket, struct, sys, urllib.request
port = int(sys.argv[1])
results = []
try:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    results.append("socket connected")
except Exception as exc:
    results.append(f"socket refused: {type(exc).__name__}")
try:
    urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
    results.append("urllib answered")
except BaseException as exc:
    results.append(f"urllib refused: {type(exc).__name__}")
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.socket(2, 1, 0)
addr = struct.pack("<HH4s8x", 2, socket.htons(port), socket.inet_aton("127.0.0.1"))
rc = libc.connect(fd, addr, len(addr))
results.append(f"ctypes connect rc={rc} errno={ctypes.get_errno()}")
print("\\n".join(results))
"""


def test_no_connection_reaches_a_loopback_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], loopback_server: tuple[int, list[object]]
) -> None:
    port, accepted = loopback_server
    path = tmp_path / "connect.py"
    path.write_text(NETWORK_PROGRAM)
    # sanity: the same raw connect works from this process
    with socket.create_connection(("127.0.0.1", port), timeout=2):
        pass
    for _ in range(200):
        if accepted:
            break
        threading.Event().wait(0.01)
    assert accepted, "the test server should accept a connection from the test itself"
    accepted.clear()

    _, report = _run_json(capsys, str(path), "--", str(port))

    assert "ctypes connect rc=-1" in report["stdout"], report["stderr"]
    assert "socket connected" not in report["stdout"]
    assert accepted == []
    layers = {layer["name"]: layer for layer in report["layers"]}
    assert layers["network"]["active"] is True


def test_no_file_appears_outside_the_workdir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir(mode=0o777)
    outside.chmod(0o777)
    marker = f"/tmp/automock-escape-{uuid.uuid4().hex}"
    path = tmp_path / "writer.py"
    path.write_text(
        "import sys\n"
        "for target in sys.argv[1:]:\n"
        "    try:\n"
        "        open(target, 'w').write('escaped')\n"
        "        print('wrote', target)\n"
        "    except OSError as exc:\n"
        "        print('refused', target, exc.errno)\n"
        "open('inside.txt', 'w').write('fine')\n"
        "print('inside ok')\n"
    )
    targets = [str(outside / "escape.txt"), marker, "../escape-up.txt", str(path)]
    before = hashlib.sha256(path.read_bytes()).hexdigest()

    code, report = _run_json(capsys, str(path), "--", *targets)

    assert code == 0, report["stderr"]
    assert "inside ok" in report["stdout"]
    assert not (outside / "escape.txt").exists()
    assert not Path(marker).exists()
    assert not (tmp_path.parent / "escape-up.txt").exists()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    # only automock's own drafted plan may appear beside the program
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fixtures", "outside", "writer.py"]
    assert [p.name for p in (tmp_path / "fixtures").iterdir()] == ["writer.automock.json"]


def test_parent_environment_secret_is_not_visible(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = f"s3cr3t-{uuid.uuid4().hex}"
    monkeypatch.setenv("AUTOMOCK_TEST_SECRET", secret)
    path = tmp_path / "env.py"
    path.write_text(
        "import os\nprint(sorted(os.environ.items()))\nprint(open('/proc/1/environ').read())\n"
    )

    _, report = _run_json(capsys, str(path))

    assert "PYTHONHASHSEED" in report["stdout"]
    assert secret not in report["stdout"] + report["stderr"]
    assert "AUTOMOCK_TEST_SECRET" not in report["stdout"]


def test_busy_loop_ends_at_the_timeout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "spin.py"
    path.write_text("print('spinning', flush=True)\nwhile True:\n    pass\n")

    code, report = _run_json(capsys, str(path), "--timeout", "1")

    assert code == 124
    assert report["status"] == "timeout"
    assert report["stdout"] == "spinning\n"


def test_memory_bomb_ends_with_the_memory_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hog.py"
    path.write_text("blocks = []\nwhile True:\n    blocks.append(bytearray(32 * 2**20))\n")

    code, report = _run_json(capsys, str(path), "--memory-mb", "256", "--timeout", "20")

    assert code == 125
    assert report["status"] == "memory"


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if marker.encode() in handle.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


@pytest.mark.parametrize(
    "program",
    [
        "import os\nwhile True:\n    os.fork()\n",
        "import os\nfor _ in range(500):\n    try:\n        os.fork()\n    except OSError:\n        pass\nwhile True:\n    pass\n",
    ],
    ids=["fork-bomb", "fork-and-spin"],
)
def test_fork_bomb_is_contained(program: str, tmp_path: Path) -> None:
    marker = f"AUTOMOCK_BOMB_{uuid.uuid4().hex}"
    path = tmp_path / "bomb.py"
    path.write_text(program)

    report = run_file(path, Plan(env={marker: "1"}), timeout=2)

    expected = "violation" if "while True:\n    os.fork()" in program else "timeout"
    assert report.status == expected, report.stderr[-500:]
    assert report.exit_code == {"violation": 126, "timeout": 124}[expected]
    assert _processes_with(marker) == []


def test_daemon_left_behind_is_killed(tmp_path: Path) -> None:
    marker = f"AUTOMOCK_DAEMON_{uuid.uuid4().hex}"
    path = tmp_path / "daemon.py"
    path.write_text(
        "import os\n"
        "r, w = os.pipe()\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    os.read(r, 1)  # blocks for ever: nobody writes\n"
        "    os._exit(0)\n"
        "print('parent done')\n"
    )

    report = run_file(path, Plan(env={marker: "1"}), timeout=10)

    assert report.status == "passed", report.stderr
    assert report.stdout == "parent done\n"
    assert _processes_with(marker) == []


def test_output_is_capped_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "chatty.py"
    path.write_text("import sys\nfor _ in range(3000):\n    sys.stdout.write('x' * 1023 + '\\n')\n")

    code, report = _run_json(capsys, str(path))

    assert code == 0
    assert report["stdout"].endswith("[automock: output truncated after 1048576 bytes]\n")
    assert report["runs"][0]["truncated"] is True


def test_allow_network_is_reported_and_lets_the_connection_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], loopback_server: tuple[int, list[object]]
) -> None:
    port, accepted = loopback_server
    path = tmp_path / "connect.py"
    path.write_text(
        "import socket, sys\n"
        "socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=5).close()\n"
        "print('connected')\n"
    )

    code, report = _run_json(capsys, str(path), "--allow-network", "--", str(port))

    assert code == 0, report["stderr"]
    assert report["stdout"] == "connected\n"
    layers = {layer["name"]: layer for layer in report["layers"]}
    assert layers["network"]["active"] is False
    assert "--allow-network" in layers["network"]["detail"]
    for _ in range(200):
        if accepted:
            break
        threading.Event().wait(0.01)
    assert accepted


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_killing_automock_run_leaves_no_sandbox_processes(sig: int, tmp_path: Path) -> None:
    marker = f"AUTOMOCK_PARENT_{uuid.uuid4().hex}"
    plan = tmp_path / "plan.automock.json"
    plan.write_text(json.dumps({"automock": 1, "env": {marker: "1"}}))
    path = tmp_path / "block.py"
    # the plan's variables are applied inside the isolated child, so the marker shows in the
    # /proc/<pid>/environ of what the program starts (exec'd with them), not of the child
    path.write_text(
        "import os, subprocess\nsubprocess.Popen(['sleep', '60'])\n"
        "r, w = os.pipe()\nos.read(r, 1)\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = [
        sys.executable,
        "-m",
        "automock",
        "run",
        str(path),
        "--plan",
        str(plan),
        "--timeout",
        "60",
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not _processes_with(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _processes_with(marker), "the sandboxed program should be running"
        proc.send_signal(sig)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    deadline = time.monotonic() + 5
    while _processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _processes_with(marker) == []
    if sig == signal.SIGTERM:
        assert proc.returncode == 130


@pytest.mark.parametrize(
    ("program", "needle"),
    [
        (
            "import threading\nev = threading.Event()\nwhile True:\n"
            "    threading.Thread(target=ev.wait, daemon=True).start()\n",
            "thread limit",
        ),
        ("open('big.bin', 'wb').write(b'x' * (80 * 2**20))\n", "file size limit"),
    ],
    ids=["thread-bomb", "huge-file"],
)
def test_resource_limits_are_violations(program: str, needle: str, tmp_path: Path) -> None:
    path = tmp_path / "hog.py"
    path.write_text(program)

    report = run_file(path, timeout=10)

    assert report.status == "violation", report.stderr[-500:]
    assert report.exit_code == 126
    assert needle in report.detail


@pytest.mark.parametrize(
    ("program", "status", "code"),
    [
        (
            "import os, signal\nprint('before', flush=True)\nos.kill(os.getpid(), signal.SIGTERM)\nprint('after')\n",
            "error",
            143,
        ),
        ("import signal\nsignal.alarm(1)\nwhile True:\n    pass\n", "error", 142),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGQUIT)\nprint('after')\n", "error", 131),
        (
            "import threading\ndef spin():\n    while True:\n        pass\n"
            "for _ in range(3):\n    threading.Thread(target=spin, daemon=True).start()\nspin()\n",
            "timeout",
            124,
        ),
    ],
    ids=["self-sigterm", "alarm", "self-sigquit", "cpu-limit-threads"],
)
def test_signals_end_the_program_as_outside_the_sandbox(
    program: str, status: str, code: int, tmp_path: Path
) -> None:
    path = tmp_path / "sig.py"
    path.write_text(program)

    report = run_file(path, Plan(), timeout=20, limits=Limits(cpu_seconds=2))

    assert (report.status, report.exit_code) == (status, code), report.detail
    assert "after" not in report.stdout


def test_an_uncaught_keyboard_interrupt_exits_as_python_file_does(tmp_path: Path) -> None:
    """python FILE prints the traceback, then dies of SIGINT (a shell sees 130)."""
    path = tmp_path / "ki.py"
    path.write_text("raise KeyboardInterrupt\n")
    plain = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)

    report = run_file(path, timeout=10)

    assert plain.returncode == -signal.SIGINT
    assert (report.status, report.exit_code) == ("error", 128 + signal.SIGINT)
    assert report.stderr.endswith("KeyboardInterrupt\n") and "SIGINT" in report.detail
