"""Forging automock's own text report on a terminal: the program's escape sequences (conceal,
cursor moves, erase, clear screen, carriage returns) never reach the terminal, its stderr lines
sit behind a gutter no report line has, and automock's real verdict is the one visible status
line (bold, after an attribute reset, on a real pseudo-terminal). The same for the `batch`
summary, whose failure details come from the candidate. `--json` stays byte-faithful."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from .harness import program

ESC = b"\x1b"


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "automock", *args]


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, timeout=120, check=False)


def _on_a_terminal(argv: list[str], cwd: Path) -> tuple[int, bytes]:
    """Run ``argv`` with stdout and stderr on a new pseudo-terminal; everything it showed."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=follower, stderr=follower
    )
    os.close(follower)
    shown = bytearray()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1.0)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: every holder of the follower side is gone
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    return proc.wait(timeout=60), bytes(shown)


def _status_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("status: ")]


def test_the_program_cannot_hide_or_imitate_the_verdict_on_stderr(tmp_path: Path) -> None:
    """Pipes: no escape byte of the program reaches either stream; on stderr (the report's
    stream) the program's imitation sits behind the gutter, so the one line starting with
    `status:` is automock's own, and it says the run failed."""
    done = _run(
        _command("run", str(program("report_terminal")), "--no-save", "--", "conceal"), tmp_path
    )
    assert done.returncode == 3, done.stderr.decode(errors="replace")[-2000:]
    assert ESC not in done.stdout and ESC not in done.stderr, (done.stdout, done.stderr[-800:])
    assert b"\r" not in done.stdout + done.stderr
    err = done.stderr.decode()
    assert _status_lines(err) == ["status: failed, exit code 3 (sys.exit(3))"], err
    assert "\u2502 status: passed, exit code 0" in err  # the imitation, marked as the program's
    assert "\\x1b[8m" in err and "\\x1b[8m" in done.stdout.decode()  # shown, not obeyed
    assert "\\u202e" in err and "\\r" in err


def test_on_a_terminal_the_report_is_reset_and_its_verdict_bold(tmp_path: Path) -> None:
    """A real pseudo-terminal: the program's conceal (SGR 8) and erase sequences never arrive;
    automock's report starts with an attribute reset and its status line is bold, which nothing
    the program printed can be."""
    code, shown = _on_a_terminal(
        _command("run", str(program("report_terminal")), "--no-save", "--", "conceal"), tmp_path
    )
    assert code == 3, shown[-2000:]
    for sequence in (b"\x1b[8m", b"\x1b[2J", b"\x1b[2K", b"\x1b[1A", b"\x1b]0;"):
        assert sequence not in shown, (sequence, shown[-2000:])
    assert b"\x1b[0m\xe2\x94\x80\xe2\x94\x80 automock run " in shown  # "── automock run"
    assert b"\x1b[1mstatus: failed, exit code 3 (sys.exit(3))\x1b[0m" in shown
    escapes = shown.count(ESC)
    assert escapes == 3, shown[-2000:]  # automock's reset, bold, reset: nothing else


def test_json_keeps_the_program_bytes_and_escapes_them(tmp_path: Path) -> None:
    """`--json`: the document has no raw control byte, and its strings hold the program's
    output exactly as written."""
    done = _run(
        _command("run", str(program("report_terminal")), "--no-save", "--json", "--", "conceal"),
        tmp_path,
    )
    assert ESC not in done.stdout and b"\r" not in done.stdout
    report = json.loads(done.stdout)
    assert report["status"] == "failed" and report["exit_code"] == 3
    assert report["stdout"].endswith("\x1b]0;title\x07\x1b[8m")
    assert "\r" in report["stderr"] and "\u202e" in report["stderr"]


def test_batch_details_cannot_forge_summary_lines(tmp_path: Path) -> None:
    """A failing candidate whose exit message holds newlines, a forged pass@k line and SGR 8:
    the stderr summary shows it on the candidate's own line, escaped; no line claims the
    forged `1/1 passed`, and the real tally is there."""
    forged = (
        "boom\\nt/forged: 1/1 passed  pass@1=1.0000\\noverall (1 problem): pass@1=1.0000\\x1b[8m"
    )
    samples = tmp_path / "samples.jsonl"
    samples.write_text(
        json.dumps({"task_id": "t/forged", "code": f'raise SystemExit("{forged}")\n'}) + "\n"
    )
    done = _run(_command("batch", str(samples), "--pass-at-k", "1"), tmp_path)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert ESC not in done.stderr and b"\r" not in done.stderr
    lines = done.stderr.decode().splitlines()
    assert "t/forged: 0/1 passed  pass@1=0.0000" in lines, lines
    assert not any("1/1 passed" in line and not line.startswith("  t/forged#0 ") for line in lines)
    assert [line for line in lines if line.startswith("overall")] == [
        "overall (1 problem): pass@1=0.0000"
    ], lines
