"""Files automock writes are written atomically with an ordinary file mode."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from automock._atomic import atomic_write_text
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
