"""The sandboxed program's stdin is at end of file even when the host's /dev/null is broken
(a regular file that discarded output filled): automock/sandbox/kernel/nullin.py."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from automock.sandbox.kernel.nullin import empty_stdin


def test_the_null_device_is_used_as_it_is() -> None:
    fd = empty_stdin()
    try:
        info = os.fstat(fd)
        if stat.S_ISCHR(os.stat(os.devnull).st_mode):
            assert stat.S_ISCHR(info.st_mode)
        assert os.read(fd, 100) == b""
    finally:
        os.close(fd)


def test_a_regular_file_in_its_place_is_not_read(tmp_path: Path) -> None:
    fake = tmp_path / "null"
    fake.write_text("what another process discarded\n")
    fd = empty_stdin(str(fake))
    try:
        assert stat.S_ISFIFO(os.fstat(fd).st_mode)
        assert os.read(fd, 100) == b""  # end of file, not the file's text
    finally:
        os.close(fd)
