"""The Python API: what ``automock.scan`` accepts, and how bad input is reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import automock
from automock.analysis.model import FileScan, ScanResult
from automock.analysis.scanner import scan_file, scan_source
from automock.errors import InputError

CLOCK = "import time\nprint(time.time())\n"


def test_scan_accepts_source_text() -> None:
    result = automock.scan(CLOCK)
    assert isinstance(result, ScanResult)
    assert [t.api for t in result.touchpoints] == ["time.time"]
    assert result.files[0].path == "<string>"


def test_single_line_source_that_is_not_a_path_is_source() -> None:
    assert [t.api for t in automock.scan("__import__('os').getpid(); hash(1)").touchpoints] == [
        "builtins.hash"
    ]


def test_scan_accepts_a_path_a_pathlike_and_a_list(tmp_path: Path) -> None:
    one = tmp_path / "one.py"
    one.write_text(CLOCK)
    two = tmp_path / "two.py"
    two.write_text("import uuid\nuuid.uuid4()\n")
    assert [t.api for t in automock.scan(str(one)).touchpoints] == ["time.time"]
    assert [t.api for t in automock.scan(one).touchpoints] == ["time.time"]
    both = automock.scan([one, str(two)])
    assert [f.path for f in both.files] == [str(one), str(two)]
    assert [t.api for t in both.touchpoints] == ["time.time", "uuid.uuid4"]
    assert automock.scan(tmp_path).touchpoints == both.touchpoints


def test_missing_py_path_raises_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.py: no such file"):
        automock.scan("nope.py")
    with pytest.raises(InputError, match="missing"):
        automock.scan([tmp_path / "missing"])


def test_syntax_error_names_file_and_line() -> None:
    scan = scan_source("x = 1\ndef broken(:\n    pass\n", "prog.py")
    assert scan.error is not None
    assert scan.error.startswith("prog.py:2:")
    assert "syntax error" in scan.error and "\n" not in scan.error
    assert scan.touchpoints == ()


def test_binary_and_non_utf8_files_are_errors_not_crashes(tmp_path: Path) -> None:
    binary = tmp_path / "blob.py"
    binary.write_bytes(b"\x7fELF\x00\x00\x01binary")
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"name = '\xe9t\xe9'\n")
    assert "binary file" in (scan_file(binary).error or "")
    error = scan_file(latin).error or ""
    assert str(latin) in error and "UTF-8" in error


def test_late_nul_byte_and_absurd_nesting_are_one_line_errors(tmp_path: Path) -> None:
    late_nul = tmp_path / "late.py"
    late_nul.write_bytes(b"x = 1\n" * 3000 + b"y = '\x00'\n")
    error = scan_file(late_nul).error or ""
    assert error.startswith(f"{late_nul}: binary file (NUL bytes)") and "\n" not in error
    deep = scan_source("x = " + "(" * 500 + ")" * 500 + "\n", "deep.py")
    assert deep.error is not None and deep.error.startswith("deep.py")


def test_declared_source_encoding_is_honoured(tmp_path: Path) -> None:
    path = tmp_path / "legacy.py"
    path.write_bytes(b"# -*- coding: latin-1 -*-\nimport time\nname = '\xe9'\ntime.sleep(1)\n")
    scan = scan_file(path)
    assert scan.error is None
    assert [(t.api, t.line) for t in scan.touchpoints] == [("time.sleep", 4)]


def test_bom_and_crlf_sources(tmp_path: Path) -> None:
    path = tmp_path / "win.py"
    path.write_bytes(b"\xef\xbb\xbfimport time\r\ntime.time()\r\n")
    scan = scan_file(path)
    assert scan.error is None
    assert [(t.line, t.col) for t in scan.touchpoints] == [(2, 0)]


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.py"
    path.write_text("")
    assert scan_file(path) == FileScan(str(path), (), None, scan_file(path).sha256)


def test_unknown_kind_lists_the_valid_ones() -> None:
    with pytest.raises(InputError, match="valid kinds are: time, random"):
        scan_source(CLOCK, kinds="time,clocks")


def test_result_serialises_to_the_documented_json_shape() -> None:
    data = json.loads(automock.scan(CLOCK).to_json())
    assert set(data) == {"schema", "files", "summary"}
    (entry,) = data["files"]
    assert set(entry) == {"path", "touchpoints"}
    (tp,) = entry["touchpoints"]
    assert set(tp) == {
        "path",
        "line",
        "col",
        "end_line",
        "end_col",
        "kind",
        "api",
        "symbol",
        "reason",
    }
    assert data["summary"]["by_kind"]["time"] == 1
    assert data["summary"]["touchpoints"] == 1


def test_cached_and_fresh_results_agree(tmp_path: Path) -> None:
    path = tmp_path / "prog.py"
    path.write_text(CLOCK)
    first = scan_file(path, cache_dir=tmp_path / "cache")
    assert list((tmp_path / "cache").rglob("*.json"))
    # a fresh process would read the disk entry; simulate by clearing memory
    from automock.analysis import scanner

    scanner._CACHE.clear()
    again = scan_file(path, cache_dir=tmp_path / "cache")
    assert again == first
    # changed content gives a fresh answer
    path.write_text("import time\n\n\ntime.sleep(1)\n")
    assert [(t.api, t.line) for t in scan_file(path).touchpoints] == [("time.sleep", 4)]


def test_corrupt_disk_cache_entry_is_ignored(tmp_path: Path) -> None:
    from automock.analysis import scanner

    path = tmp_path / "prog.py"
    path.write_text(CLOCK)
    first = scan_file(path, cache_dir=tmp_path / "cache")
    for entry in (tmp_path / "cache").rglob("*.json"):
        entry.write_text("{not json")
    scanner._CACHE.clear()
    assert scan_file(path, cache_dir=tmp_path / "cache") == first
