"""What a new user meets first: the README's quick start and the commands' first refusals.

The README's example output is compared with what the quick-start command prints today:
every line kind, count, touchpoint and access, the status and the verdict; not timings,
paths or the layers' detail text (which name this machine), so the README can be
regenerated on another machine and still pass.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from automock.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
QUICK_START = ["run", "examples/weather_report.py", "--repeat", "2"]


def _readme_sample() -> str:
    """The fenced block after "What the first prints"."""
    after = README.split("What the first prints", 1)[1]
    match = re.search(r"```text\n(.*?)```", after, re.S)
    assert match, "README: no ```text block after 'What the first prints'"
    return match.group(1)


def _shape(text: str) -> list[tuple[str, ...]]:
    """The report's lines as (kind, what must match): exact where the output is the
    program's or the plan's, kind and name only where it describes this machine."""
    shape: list[tuple[str, ...]] = []
    section = "program"
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if raw.startswith("── automock run"):
            section = "report"
            shape.append(("header", line))
        elif section == "program":
            shape.append(("program output", line))
        elif raw.startswith("isolation"):
            section = "layers"
            shape.append(("isolation", line))
        elif section == "layers" and (layer := re.match(r"\s+(\[[^\]]*\]) (\S+)", raw)):
            shape.append(("layer", layer.group(1), layer.group(2)))
        elif raw.startswith("kernel counts"):
            shape.append(("kernel counts", line.split(";")[0]))
        elif raw.startswith("timings:"):
            shape.append(("timings", *re.findall(r"([a-z][a-z ()]*?) \d+ ms", line)))
        else:  # touchpoints, accesses (headers with their counts, then one line each), status
            shape.append(("line", line))
    return shape


def test_the_readme_sample_output_is_what_the_quick_start_prints() -> None:
    env = {**os.environ, "AUTOMOCK_SERVER": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "automock", *QUICK_START],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    printed = _shape(done.stdout + done.stderr)
    shown = _shape(_readme_sample())
    assert [s for s in shown if s[0] != "layer"] == [p for p in printed if p[0] != "layer"]
    assert [s for s in shown if s[0] == "layer"] == [p for p in printed if p[0] == "layer"]


def test_the_quick_start_says_where_the_example_plan_comes_from() -> None:
    quick = README.split("## Quick start", 1)[1].split("What the first prints", 1)[0]
    assert "automock run examples/weather_report.py" in quick
    assert (ROOT / "fixtures" / "weather_report.automock.json").is_file()
    # the plan is shipped, so the first command does not draft: the README must say so,
    # and show the command that drafts one
    assert "shipped" in quick and "automock draft" in quick


def test_the_readme_exit_code_table_has_a_row_for_each_command_exit_1() -> None:
    table = README.split("## Exit codes", 1)[1].split("##", 1)[0]
    row = next(line for line in table.splitlines() if line.startswith("| 1 |"))
    assert "scan --fail-on-touchpoints" in row and "check" in row


def test_check_exits_1_when_a_property_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The row the README's table gives `check`'s exit 1 describes what it does."""
    deal = tmp_path / "deal.py"
    deal.write_text("def shuffle(xs: list[int]) -> list[int]:\n    return [0] * len(xs)\n")
    assert main(["check", f"{deal}::shuffle"]) == 1
    capsys.readouterr()


def test_draft_of_a_directory_says_it_is_one_and_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app").mkdir()
    assert main(["draft", "app"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "app: is a directory" in line and "automock draft app/*.py" in line


def test_draft_drafts_every_file_and_reports_each_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text("import time\nprint(time.time())\n")
    (tmp_path / "broken.py").write_text("def (:\n")
    (tmp_path / "c.py").write_text("import random\nprint(random.random())\n")
    code = main(["draft", "a.py", "broken.py", "missing.py", "c.py"])
    out, err = capsys.readouterr()
    assert code == 2
    assert (tmp_path / "fixtures" / "a.automock.json").is_file()
    assert (tmp_path / "fixtures" / "c.automock.json").is_file()
    errors = err.splitlines()
    assert any(e.startswith("automock: error: broken.py:1: syntax error") for e in errors)
    assert any(e.startswith("automock: error: missing.py: no such file") for e in errors)
    assert errors[-1] == ("automock: drafted 2 of 4 files; 2 failed: broken.py, missing.py")
    assert out.count("wrote fixtures/") == 2


@pytest.mark.parametrize(
    ("name", "text"),
    [("data.json", '{"a": 1}\n'), ("notes.txt", "hello\n"), ("setup.sh", "x = 1\n")],
)
@pytest.mark.parametrize("command", ["run", "draft"])
def test_a_file_that_is_not_python_source_is_refused(
    command: str,
    name: str,
    text: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each of these is valid Python syntax, so only its kind tells it is not a program."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text)
    assert main([command, name]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"automock: error: {name}: not Python source")
    assert not (tmp_path / "fixtures").exists()


def test_a_script_with_a_python_shebang_runs_whatever_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tool.cgi").write_text("#!/usr/bin/env python3\nprint('hi')\n")
    assert main(["run", "tool.cgi"]) == 0
    assert "hi" in capsys.readouterr().out


BLOCKS_AFTER_PRINTING = """
import os, sys
print("before the interruption", flush=True)
print("a warning", file=sys.stderr, flush=True)
r, w = os.pipe()
os.read(r, 1)  # waits for ever, holding both ends of its own pipe
"""


def _descendants(root: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        kids = [p for p, parent in parents.items() if parent == pid]
        found += kids
        frontier += kids
    return found


def _reading_its_own_pipe(pid: int) -> bool:
    """The program is past its prints: it sleeps reading a pipe whose both ends it holds."""
    try:
        if "pipe" not in Path(f"/proc/{pid}/wchan").read_text():
            return False
        ends = [os.readlink(fd) for fd in Path(f"/proc/{pid}/fd").iterdir()]
    except OSError:
        return False
    pipes = [e for e in ends if e.startswith("pipe:")]
    return len(pipes) != len(set(pipes))


def test_ctrl_c_prints_what_the_program_wrote_then_the_interruption(tmp_path: Path) -> None:
    (tmp_path / "waits.py").write_text(BLOCKS_AFTER_PRINTING)
    env = {**os.environ, "AUTOMOCK_SERVER": "0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "automock", "run", "waits.py", "--timeout", "600"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        # as a terminal's foreground job: a suite started in the background (SIGINT ignored,
        # which a program keeps, as automock does: tests/integration/test_run_fork.py) would
        # otherwise hand the command an ignored Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        # wait for the program to reach its read (seen from outside), however slow the machine
        while proc.poll() is None and not any(
            _reading_its_own_pipe(p) for p in _descendants(proc.pid)
        ):
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        out, err = (b.decode() for b in proc.communicate(timeout=300))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert out == "before the interruption\n"
    lines = err.splitlines()
    assert lines[-1] == "automock: interrupted"
    assert "│ a warning" in lines[:-1]


def test_the_timings_line_accounts_for_the_whole_command(tmp_path: Path) -> None:
    """The phases are the runs' work; the line also gives the whole command's time since its
    process started (interpreter start-up, restart, plan drafting), named as such."""
    (tmp_path / "clock.py").write_text("import time\nprint(time.time())\n")
    env = {**os.environ, "AUTOMOCK_SERVER": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "automock", "run", "clock.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("timings:")]
    figures = dict(re.findall(r"([a-z]+) (\d+) ms", line))
    assert set(figures) == {"scan", "plan", "runs", "total", "command"}
    assert int(figures["command"]) >= int(figures["total"])
    assert "command" in line and "since its process started" in line
    assert "drafting" in line  # what the rest is


def test_ctrl_c_while_the_command_starts_is_never_a_traceback(tmp_path: Path) -> None:
    """Ctrl-C at any moment of start-up (before the command's own handler): exit 130 with
    one line, or the interpreter's own death while it starts (before any line of automock
    runs, CPython's "Fatal Python error: init_import_site" is its own)."""
    (tmp_path / "waits.py").write_text(BLOCKS_AFTER_PRINTING)
    env = {**os.environ, "AUTOMOCK_SERVER": "0"}
    seen = []
    for step in range(24):
        proc = subprocess.Popen(
            [sys.executable, "-m", "automock", "run", "waits.py", "--timeout", "600"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        time.sleep(step * 0.0125)  # from its first instruction into its start-up
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=120)[1].decode()
        seen.append(proc.returncode)
        assert proc.returncode in (130, 1, -signal.SIGINT), (proc.returncode, err)
        if proc.returncode == 130:  # automock's own handling: one line
            assert err.endswith("automock: interrupted\n"), err
        # a traceback only from the interpreter's own start-up, before automock's code runs
        # (CPython's "Fatal Python error: init_import_site"), never through automock's frames
        assert "Traceback" not in err or "/automock/" not in err, (proc.returncode, err)
    assert 130 in seen  # some interruptions reached automock's own handling
