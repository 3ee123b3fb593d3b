"""``automock run`` as a command: JSON schema, exit codes, plans, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from automock.cli import main
from automock.pipeline.run import run_file, run_source

REPORT_KEYS = {
    "schema",
    "file",
    "exit_code",
    "status",
    "detail",
    "seed",
    "plan",
    "stdout",
    "stderr",
    "touchpoints",
    "accesses",
    "unmocked",
    "accesses_source",
    "report_problem",
    "kernel",
    "hidden_accesses",
    "sources",
    "layers",
    "runs",
    "deterministic",
    "diff",
    "timings",
    "automock_exit_code",
    "notes",
}
EMPTY_PLAN = '{"automock": 1, "network": "deny"}\n'


def _run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["run", "--json", *argv])
    return code, json.loads(capsys.readouterr().out)


def test_json_report_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "clock.py"
    path.write_text("import time\nprint(int(time.time()))\n")

    code, report = _run_json(capsys, str(path))

    assert code == 0
    assert set(report) == REPORT_KEYS
    assert report["status"] == "passed" and report["exit_code"] == 0
    assert report["deterministic"] is None and report["diff"] == ""
    assert report["stdout"] == "1704067200\n"  # the plan's default instant
    assert [t["api"] for t in report["touchpoints"]] == ["time.time"]
    assert all(
        set(a) == {"kind", "api", "target", "mocked", "fix", "served_by"}
        for a in report["accesses"]
    )
    layers = {layer["name"]: layer for layer in report["layers"]}
    assert {
        "session",
        "network",
        "filesystem",
        "pid",
        "rlimits",
        "uid",
        "runtime",
        "workdir",
    } <= set(layers)
    assert all(isinstance(layer["active"], bool) and layer["detail"] for layer in layers.values())
    assert set(report["timings"]) == {"scan", "plan", "runs", "total"}
    (run,) = report["runs"]
    assert run["status"] == "passed" and run["returncode"] == 0


def test_arguments_after_double_dash_go_to_the_program(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "argv.py"
    path.write_text("import sys\nprint(sys.argv[1:])\n")

    code = main(["run", str(path), "--seed", "3", "--", "a", "--json", "--repeat", "3"])

    out, err = capsys.readouterr()
    assert code == 0
    assert out == "['a', '--json', '--repeat', '3']\n"
    assert "(seed 3," in err and "verdict" not in err


def test_exit_code_is_the_programs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fails.py"
    path.write_text("import sys\nprint('bye')\nsys.exit(7)\n")
    code, report = _run_json(capsys, str(path))
    assert code == 7
    assert report["status"] == "failed" and report["stdout"] == "bye\n"


def test_uncaught_exception_prints_a_python_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "boom.py"
    path.write_text("def f():\n    raise ValueError('boom')\nf()\n")
    code, report = _run_json(capsys, str(path))
    assert code == 1
    assert report["stderr"].startswith("Traceback (most recent call last):\n")
    assert report["stderr"].endswith("ValueError: boom\n")
    assert "automock/sandbox" not in report["stderr"]


def test_stdin_is_closed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "reads.py"
    path.write_text("try:\n    input()\nexcept EOFError:\n    print('eof')\n")
    _, report = _run_json(capsys, str(path))
    assert report["stdout"] == "eof\n"


def test_unmocked_access_exits_5_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = tmp_path / "empty.automock.json"
    plan.write_text(EMPTY_PLAN)
    path = tmp_path / "fetch.py"
    path.write_text("import urllib.request\nurllib.request.urlopen('http://example.com/data')\n")

    code, report = _run_json(capsys, str(path), "--plan", str(plan))

    assert code == 5
    assert report["status"] == "unmocked"
    (miss,) = report["unmocked"]
    assert miss["kind"] == "network" and "http://example.com/data" in miss["target"]
    assert "stub_http" in miss["fix"]


def test_caught_unmocked_access_is_still_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = tmp_path / "empty.automock.json"
    plan.write_text(EMPTY_PLAN)
    path = tmp_path / "fetch.py"
    path.write_text(
        "import urllib.request\n"
        "try:\n"
        "    urllib.request.urlopen('http://example.com/data')\n"
        "except Exception as exc:\n"
        "    print('caught', type(exc).__name__)\n"
    )

    code = main(["run", str(path), "--plan", str(plan)])

    out, err = capsys.readouterr()
    assert code == 0
    assert out == "caught UnmockedAccessError\n"
    assert "UNMOCKED network" in err and "fix: " in err


def test_plan_file_in_fixtures_is_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "clock.automock.json").write_text(
        '{"automock": 1, "seed": 9, "clock": {"at": "2030-05-06T07:08:09+00:00"}}\n'
    )
    path = tmp_path / "clock.py"
    path.write_text(
        "import datetime\nprint(datetime.datetime.now(datetime.timezone.utc).isoformat())\n"
    )

    code, report = _run_json(capsys, "clock.py")

    assert code == 0, report["stderr"]
    assert report["plan"] == str(Path("fixtures") / "clock.automock.json")
    assert report["seed"] == 9
    assert report["stdout"].startswith("2030-05-06T07:08:09")
    assert [t["api"] for t in report["touchpoints"]] == ["datetime.datetime.now"]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["missing.py"], "no such file"),
        (["."], "is a directory"),
        (["bad.py"], "syntax error"),
        (["ok.py", "--repeat", "0"], "--repeat"),
        (["ok.py", "--timeout", "-1"], "--timeout"),
        (["ok.py", "--plan", "nowhere.json"], "--plan nowhere.json"),
        (["ok.py", "--bogus"], "--bogus"),
        ([], "give the FILE"),
    ],
)
def test_bad_input_is_one_line_with_exit_2(
    argv: list[str],
    needle: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.py").write_text("def broken(:\n")
    (tmp_path / "ok.py").write_text("print('ok')\n")

    code = main(["run", *argv])

    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err
    assert "Traceback" not in err


def test_malformed_plan_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = tmp_path / "broken.automock.json"
    plan.write_text('{"automock": 1, "seed": "nope"}')
    path = tmp_path / "ok.py"
    path.write_text("print('ok')\n")

    code = main(["run", str(path), "--plan", str(plan)])

    _, err = capsys.readouterr()
    assert code == 3
    assert "seed" in err and len(err.strip().splitlines()) == 1
    assert plan.read_text() == '{"automock": 1, "seed": "nope"}'


def test_python_api_run_source_and_run_file(tmp_path: Path) -> None:
    report = run_source("import random\nprint(random.randint(0, 10**9))\n", repeat=2, seed=5)
    assert report.file == "<string>"
    assert report.deterministic is True and report.ok
    again = run_source("import random\nprint(random.randint(0, 10**9))\n", seed=5)
    assert again.stdout == report.stdout
    path = tmp_path / "p.py"
    path.write_text("print('x')\n")
    assert run_file(path).stdout == "x\n"
    assert json.loads(report.to_json())["runs"][1]["stdout"] == report.stdout


def test_os_exit_still_reports_the_layers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "abrupt.py"
    path.write_text("import os\nprint('bye', flush=True)\nos._exit(3)\n")

    code, report = _run_json(capsys, str(path))

    assert code == 3
    assert report["status"] == "error" and report["stdout"] == "bye\n"
    assert {"network", "filesystem", "runtime"} <= {layer["name"] for layer in report["layers"]}


def test_a_forged_result_message_is_not_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "forger.py"
    path.write_text(
        "import json, os\n"
        "fake = json.dumps({'phase': 'done', 'exit_code': 0, 'status': 'ok', 'layers': []}) + '\\n'\n"
        "for name in os.listdir('/proc/self/fd'):\n"
        "    if int(name) > 2:\n"
        "        try:\n"
        "            os.write(int(name), fake.encode())\n"
        "        except OSError:\n"
        "            pass\n"
        "os._exit(7)\n"
    )

    code, report = _run_json(capsys, str(path))

    assert code == 7
    assert report["status"] == "error"


def test_scan_and_the_run_report_print_one_position_convention(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``line:column`` with 1-based columns, as compilers print them, in both outputs."""
    path = tmp_path / "clock.py"
    path.write_text("import time\nx = 1; print(int(time.time()))\n")  # time.time at column 18
    assert main(["scan", str(path)]) == 0
    scanned = capsys.readouterr().out
    assert main(["run", str(path)]) == 0
    reported = capsys.readouterr().err
    assert re.search(r"^\s+2:18\s+time\s+time\.time", scanned, re.M), scanned
    assert re.search(r"^\s+2:18 time\s+time\.time$", reported, re.M), reported
