"""``automock scan --max-file-size``: a file too large to scan is skipped with one line,
the rest of a directory is scanned, and the limit can be raised (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main
from automock.errors import EXIT_INPUT, EXIT_TOO_LARGE


def _generated(lines: int) -> str:
    """A dense generated module: 8-line functions, each reading the clock."""
    out = ["import time\n"]
    for index in range(lines // 8):
        out.append(f"def f_{index}():\n    return time.time()\n" + "\n" * 6)
    return "".join(out)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "small.py").write_text("import random\nprint(random.random())\n")
    (src / "huge.py").write_text(_generated(800))  # ~ 5 KB
    return src


def test_a_named_file_over_the_limit_is_one_line_and_exit_6(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = tree / "huge.py"
    assert main(["scan", str(huge), "--max-file-size", "2K"]) == EXIT_TOO_LARGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert str(huge) in err and "B is over the scan limit" in err
    assert "--max-file-size" in err


def test_a_directory_scan_skips_the_huge_file_and_scans_the_rest(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["scan", str(tree), "--json", "--max-file-size", "2K"])
    assert code == EXIT_TOO_LARGE
    out, err = capsys.readouterr()
    files = {Path(f["path"]).name: f for f in json.loads(out)["files"]}
    assert files["small.py"]["touchpoints"][0]["api"] == "random.random"
    assert "over the scan limit" in files["huge.py"]["error"]
    assert files["huge.py"]["touchpoints"] == []
    assert "huge.py: skipped" in err


def test_raising_the_limit_scans_the_file(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for limit in ("1M", "0"):  # 0: no limit
        assert main(["scan", str(tree / "huge.py"), "--json", "--max-file-size", limit]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["summary"]["touchpoints"] == 100


def test_another_bad_file_still_wins_with_exit_2(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tree / "broken.py").write_text("x = (1,\n")
    assert main(["scan", str(tree), "--max-file-size", "2K"]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "huge.py: skipped" in err and "broken.py:1" in err


def test_a_bad_size_is_bad_input(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(tree), "--max-file-size", "lots"]) == EXIT_INPUT
    assert "not a size" in capsys.readouterr().err


def test_follow_skips_a_huge_project_module_and_scans_the_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tables.py").write_text(_generated(800))
    (tmp_path / "app.py").write_text("import random\nimport tables\nprint(random.random())\n")
    monkeypatch.chdir(tmp_path)
    code = main(["scan", "app.py", "--follow", "--json", "--max-file-size", "2K"])
    assert code == EXIT_TOO_LARGE
    out, err = capsys.readouterr()
    files = {f["path"]: f for f in json.loads(out)["files"]}
    assert files["app.py"]["touchpoints"][0]["api"] == "random.random"
    assert "over the scan limit" in files["tables.py"]["error"]
    assert "tables.py: skipped" in err
