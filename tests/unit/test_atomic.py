"""Files automock writes are written atomically with an ordinary file mode."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from automock._atomic import atomic_write_text, read_beneath
from automock.errors import PlanError


def test_new_file_gets_the_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = atomic_write_text(tmp_path / "sub" / "plan.json", "{}\n")
    finally:
        os.umask(old)
    assert path.read_text() == "{}\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert [p.name for p in path.parent.iterdir()] == ["plan.json"]


def test_rewrite_keeps_the_existing_mode(tmp_path: Path) -> None:
    path = tmp_path / "plan.json"
    path.write_text("old")
    path.chmod(0o640)
    atomic_write_text(path, "new")
    assert path.read_text() == "new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_parent_that_is_a_file_is_a_named_plan_error(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("x")
    with pytest.raises(PlanError, match="blocker"):
        atomic_write_text(tmp_path / "blocker" / "plan.json", "{}")
    assert (tmp_path / "blocker").read_text() == "x"


def test_a_fifo_is_written_to_not_replaced(tmp_path: Path) -> None:
    """A rename over a device or FIFO would replace it (``--jsonl /dev/null`` as root once
    turned the host's /dev/null into a regular file)."""
    import threading

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic_write_text(fifo, "line\n")
    reader.join(timeout=10)
    assert got == [b"line\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out.fifo"]  # no temp file left


# ---------------------------------------------- beneath: inside the project, no link followed


def test_beneath_creates_missing_directories_with_the_ordinary_modes(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = atomic_write_text(tmp_path / "a" / "b" / "plan.json", "{}\n", beneath=tmp_path)
    finally:
        os.umask(old)
    assert path.read_text() == "{}\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert [p.name for p in path.parent.iterdir()] == ["plan.json"]


def test_beneath_keeps_an_existing_files_mode(tmp_path: Path) -> None:
    path = tmp_path / "plan.json"
    path.write_text("old")
    path.chmod(0o640)
    atomic_write_text(path, "new", beneath=tmp_path)
    assert (path.read_text(), stat.S_IMODE(path.stat().st_mode)) == ("new", 0o640)


@pytest.mark.parametrize("where", ["directory", "deeper directory", "file"])
def test_beneath_never_writes_through_a_link(tmp_path: Path, where: str) -> None:
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    (elsewhere / "plan.json").write_text("theirs")
    if where == "directory":
        (project / "fixtures").symlink_to(elsewhere)
    elif where == "deeper directory":
        (project / "fixtures").mkdir()
        (project / "fixtures" / "sub").symlink_to(elsewhere)
    else:
        (project / "fixtures").mkdir()
        (project / "fixtures" / "plan.json").symlink_to(elsewhere / "plan.json")
    target = (
        project / "fixtures" / ("sub/plan.json" if where == "deeper directory" else "plan.json")
    )
    with pytest.raises(PlanError, match="symbolic link"):
        atomic_write_text(target, "ours", beneath=project)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["plan.json"]
    assert (elsewhere / "plan.json").read_text() == "theirs"


def test_beneath_refuses_a_fifo_and_a_path_outside(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    with pytest.raises(PlanError, match="not a regular file"):
        atomic_write_text(tmp_path / "pipe.json", "{}", beneath=tmp_path)
    with pytest.raises(PlanError, match="is not inside"):
        atomic_write_text(tmp_path.parent / "x.json", "{}", beneath=tmp_path)


def test_read_beneath_reads_a_file_and_refuses_a_link(tmp_path: Path) -> None:
    (tmp_path / "real.yaml").write_text("data")
    (tmp_path / "link.yaml").symlink_to(tmp_path / "real.yaml")
    assert read_beneath(tmp_path / "real.yaml", tmp_path, what="cassette", limit=2) == b"da"
    assert read_beneath(tmp_path / "gone.yaml", tmp_path, what="cassette", limit=9) is None
    with pytest.raises(PlanError, match=r"link\.yaml: is a symbolic link"):
        read_beneath(tmp_path / "link.yaml", tmp_path, what="cassette", limit=9)
