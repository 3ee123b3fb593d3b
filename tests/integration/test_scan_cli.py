"""``automock scan`` through ``automock.cli.main``: formats, filters and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "clock.py").write_text("import time as t\nprint(t.time())\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "dice.py").write_text("from random import *\nroll = randint(1, 6)\n")
    (tmp_path / "pkg" / "pure.py").write_text("def add(a, b):\n    return a + b\n")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "vendored.py").write_text("import os\nos.getpid()\n")
    return tmp_path


def test_text_output_is_grouped_by_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(project)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == str(project / "clock.py")
    assert "2:7" in lines[1] and "time.time" in lines[1] and "t.time" in lines[1]
    assert str(project / "pkg" / "dice.py") in lines
    assert "vendored" not in out and "pure.py" not in out
    assert lines[-1] == "2 touchpoint(s) in 3 file(s) (time 1, random 1)"


def test_json_output_shape(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(project), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"schema", "files", "summary"}
    assert [Path(f["path"]).name for f in data["files"]] == ["clock.py", "dice.py", "pure.py"]
    assert data["files"][1]["touchpoints"][0]["api"] == "random.randint"
    assert data["summary"]["touchpoints"] == 2
    assert data["summary"]["by_kind"]["random"] == 1


def test_sarif_output(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(project), "--sarif"]) == 0
    log = json.loads(capsys.readouterr().out)
    assert log["version"] == "2.1.0"
    assert len(log["runs"][0]["results"]) == 2


def test_json_and_sarif_are_exclusive(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(project), "--json", "--sarif"]) == 2
    assert "not allowed with" in capsys.readouterr().err


def test_kinds_filter(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(project), "--json", "--kinds", "random"]) == 0
    data = json.loads(capsys.readouterr().out)
    apis = [t["api"] for f in data["files"] for t in f["touchpoints"]]
    assert apis == ["random.randint"]


def test_unknown_kind_is_bad_input(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(project), "--kinds", "time,weather"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("automock: error: unknown kind weather; valid kinds are: time")
    assert len(err.splitlines()) == 1


def test_fail_on_touchpoints(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(project), "--fail-on-touchpoints"]) == 1
    assert main(["scan", str(project / "pkg" / "pure.py"), "--fail-on-touchpoints"]) == 0
    assert main(["scan", str(project), "--kinds", "network", "--fail-on-touchpoints"]) == 0


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("broken.py", b"def f(:\n    pass\n", "broken.py:1:"),
        ("blob.py", b"\x00\x01\x02binary", "binary file"),
        ("latin.py", b"s = '\xe9'\n", "not valid UTF-8"),
    ],
)
def test_bad_single_file_is_one_error_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: bytes,
    expected: str,
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert main(["scan", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("automock: error: ") and expected in err
    assert str(path) in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(tmp_path / "nowhere.py")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert (
        err
        == f"automock: error: {tmp_path / 'nowhere.py'}: no such file or directory; check the path\n"
    )


def test_directory_with_bad_files_reports_them_and_goes_on(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pkg" / "broken.py").write_text("x = (\n")
    assert main(["scan", str(project), "--json", "--fail-on-touchpoints"]) == 2
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["summary"]["files_with_errors"] == 1
    assert data["summary"]["touchpoints"] == 2
    (bad,) = [f for f in data["files"] if "error" in f]
    assert bad["path"].endswith("broken.py")
    assert err.count("automock: error: ") == 1 and "broken.py:1" in err


def test_exclude_and_jobs(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(project), "--exclude", "pkg", "--json"]) == 0
    serial = json.loads(capsys.readouterr().out)
    assert [Path(f["path"]).name for f in serial["files"]] == ["clock.py"]
    assert main(["scan", str(project), "--jobs", "2", "--json"]) == 0
    parallel = json.loads(capsys.readouterr().out)
    assert main(["scan", str(project), "--json"]) == 0
    assert parallel == json.loads(capsys.readouterr().out)
    assert main(["scan", str(project), "--jobs", "-1"]) == 2


def test_cache_flag_writes_under_automock_cache(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    assert main(["scan", ".", "--cache", "--json"]) == 0
    first = capsys.readouterr().out
    assert list((project / ".automock-cache").rglob("*.json"))
    assert main(["scan", ".", "--cache", "--json"]) == 0
    assert capsys.readouterr().out == first


def test_bundled_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(EXAMPLES), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    apis = {t["api"] for f in data["files"] for t in f["touchpoints"]}
    assert {
        "requests.get",
        "datetime.datetime.now",
        "random.shuffle",
        "uuid.uuid4",
        "sqlite3.connect",
        "httpx.AsyncClient",
    } <= apis
