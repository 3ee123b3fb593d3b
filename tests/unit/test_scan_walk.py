"""Directory discovery: recursion, default excludes, .gitignore, explicit excludes."""

from __future__ import annotations

from pathlib import Path

import pytest

from automock.analysis.scanner import scan_paths
from automock.analysis.walk import discover
from automock.errors import InputError


def _tree(root: Path, files: list[str]) -> None:
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("import time\ntime.time()\n")


def test_recursion_and_default_excludes(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        [
            "app.py",
            "pkg/mod.py",
            "pkg/sub/deep.py",
            "pkg/readme.txt",
            ".venv/lib/x.py",
            "venv/y.py",
            "build/z.py",
            "dist/z.py",
            "node_modules/n.py",
            "pkg/__pycache__/c.py",
            "lib/site-packages/s.py",
            "thing.egg-info/e.py",
            ".git/hooks/h.py",
            ".tox/t.py",
        ],
    )
    found = [p.relative_to(tmp_path).as_posix() for p in discover([tmp_path])]
    assert found == ["app.py", "pkg/mod.py", "pkg/sub/deep.py"]


def test_gitignore_lines_and_explicit_excludes(tmp_path: Path) -> None:
    _tree(tmp_path, ["keep.py", "generated/gen.py", "scratch_1.py", "sub/local.py", "sub/ok.py"])
    (tmp_path / ".gitignore").write_text("# comment\n/generated/\nscratch_*.py\n!negated.py\n")
    (tmp_path / "sub" / ".gitignore").write_text("local.py\n")
    found = [p.relative_to(tmp_path).as_posix() for p in discover([tmp_path])]
    assert found == ["keep.py", "sub/ok.py"]
    found = [p.relative_to(tmp_path).as_posix() for p in discover([tmp_path], excludes=["sub"])]
    assert found == ["keep.py"]


def test_explicit_file_is_always_scanned_and_duplicates_are_dropped(tmp_path: Path) -> None:
    _tree(tmp_path, ["build/tool.py", "a.py"])
    explicit = tmp_path / "build" / "tool.py"
    found = discover([explicit, tmp_path, tmp_path / "a.py"])
    assert found == [explicit, tmp_path / "a.py"]


def test_missing_path_raises(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file or directory"):
        discover([tmp_path / "absent"])


def test_directory_scan_reports_bad_files_and_goes_on(tmp_path: Path) -> None:
    _tree(tmp_path, ["a.py", "c.py"])
    (tmp_path / "b.py").write_text("def (:\n")
    result = scan_paths([tmp_path])
    assert [Path(f.path).name for f in result.files] == ["a.py", "b.py", "c.py"]
    assert [Path(f.path).name for f in result.errors] == ["b.py"]
    assert len(result.touchpoints) == 2


def test_parallel_scan_matches_serial(tmp_path: Path) -> None:
    _tree(tmp_path, [f"m{i}.py" for i in range(6)])
    (tmp_path / "bad.py").write_bytes(b"\x00\x01")
    assert scan_paths([tmp_path], jobs=2) == scan_paths([tmp_path], jobs=1)


def test_gitignore_negation_anchoring_and_nested_files_follow_git(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        [
            "gen_a.py",
            "gen_keep.py",
            "src/gen_b.py",
            "src/gen_local.py",
            "logs/x.py",
            "docs/build/conf.py",
            "build.py",
            "deep/a/b/tmp_x.py",
        ],
    )
    (tmp_path / ".gitignore").write_text(
        "gen_*.py\n!gen_keep.py\nlogs/\n/docs/build\n**/b/tmp_*.py\n"
    )
    (tmp_path / "src" / ".gitignore").write_text("!gen_local.py\n")  # a deeper file re-includes
    found = [p.relative_to(tmp_path).as_posix() for p in discover([tmp_path])]
    assert found == ["build.py", "gen_keep.py", "src/gen_local.py"]
    # and what the scanner scans
    assert [Path(f.path).name for f in scan_paths([tmp_path]).files] == [
        "build.py",
        "gen_keep.py",
        "gen_local.py",
    ]


def test_a_link_to_a_file_outside_the_directory_is_not_read(tmp_path: Path) -> None:
    """The walked directory is the project's: its links to files outside are skipped, its
    links inside are found once."""
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    (elsewhere / "private.py").write_text("import time\ntime.time()\n")
    (project / "app.py").write_text("x = 1\n")
    (project / "out.py").symlink_to(elsewhere / "private.py")
    (project / "alias.py").symlink_to(project / "app.py")
    found = [p.relative_to(project).as_posix() for p in discover([project])]
    assert found == ["alias.py"]  # app.py is the same file (found once), out.py is skipped
