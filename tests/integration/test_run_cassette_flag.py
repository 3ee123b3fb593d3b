"""``automock run FILE --cassette PATH``: replay a cassette named on the command line.

Errors name the person's path: a missing or corrupt cassette is one line before the run,
and a request missing from it names the cassette as given, never the sandbox's copy.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from automock.cli import main
from automock.errors import EXIT_INPUT, EXIT_UNMOCKED

PROGRAM = """\
import sys
import urllib.request

print(urllib.request.urlopen("http://api.test/" + sys.argv[1]).read().decode())
"""

CASSETTE = """\
interactions:
- request:
    body: null
    headers: {}
    method: GET
    uri: http://api.test/taped
  response:
    body: {string: 'from the tape'}
    headers: {}
    status: {code: 200, message: OK}
version: 1
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "prog.py").write_text(PROGRAM)
    (tmp_path / "tapes").mkdir()
    (tmp_path / "tapes" / "api.yaml").write_text(CASSETTE)
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["run", "prog.py", "--no-save", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow  # two sandboxed runs
def test_the_cassette_replays_and_a_miss_names_the_users_path(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "--cassette", "tapes/api.yaml", "--", "taped")
    assert (code, out) == (0, "from the tape\n"), err  # not the drafted stub's guess

    code, out, err = _run(capsys, "--cassette", "tapes/api.yaml", "--", "other")
    assert code == EXIT_UNMOCKED, err
    assert "GET http://api.test/other via http.client is not in cassette tapes/api.yaml" in err
    assert "tapes/api.yaml has no recording of GET http://api.test/other" in err
    assert "/cassettes/api.yaml" not in err  # the sandbox's staged copy is never shown


def test_a_missing_cassette_is_one_line_before_the_run(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "--cassette", "tapes/gone.yaml", "--", "taped")
    assert code == EXIT_INPUT and out == ""
    assert err.strip() == (
        "automock: error: cassette tapes/gone.yaml not found "
        "(record it with: automock run prog.py --record --cassette tapes/gone.yaml)"
    )


def test_a_corrupt_cassette_is_named_as_given(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "tapes" / "bad.yaml").write_text("interactions: 42\n")
    code, out, err = _run(capsys, "--cassette", "tapes/bad.yaml", "--", "taped")
    assert code == EXIT_INPUT and out == ""
    assert "cassette tapes/bad.yaml: not a vcrpy cassette" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_record_mode_needs_record_or_cassette(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "--record-mode", "once", "--", "taped")
    assert code == EXIT_INPUT
    assert "--record-mode once: only used with --record" in err


def test_a_directory_is_refused(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--cassette", "tapes", "--", "taped")
    assert code == EXIT_INPUT
    assert "--cassette tapes: is a directory" in err
