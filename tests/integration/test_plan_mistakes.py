"""A plan with a mistake is refused with one line that names it (exit 3), never used silently."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from automock.cli import main

PROG = """\
import requests
r = requests.get("https://api.example.com/v1/items")
print(r.json()["total"] + 1)
"""


@pytest.fixture
def plan_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    Path("prog.py").write_text(PROG)
    assert main(["draft", "prog.py"]) == 0
    return tmp_path / "fixtures" / "prog.automock.json"


def _stub(plan: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = next(e for e in plan["entries"] if e["strategy"] == "stub_http")
    return entry


def _rename(obj: dict[str, Any], old: str, new: str) -> None:
    obj[new] = obj.pop(old)


EDITS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("data.jsno", lambda p: _rename(_stub(p)["data"], "json", "jsno"), "did you mean 'json'?"),
    ("stratgy", lambda p: _rename(_stub(p), "strategy", "stratgy"), "did you mean 'strategy'?"),
    ("data.stauts", lambda p: _rename(_stub(p)["data"], "status", "stauts"), "'status'"),
    ("clock.tik", lambda p: _rename(p["clock"], "tick", "tik"), "did you mean 'tick'?"),
    ("source.sha", lambda p: _rename(p["source"], "sha256", "sha"), "did you mean 'sha256'?"),
    ("top-level entires", lambda p: _rename(p, "entries", "entires"), "did you mean 'entries'?"),
    ("entry gussed", lambda p: _rename(_stub(p), "guessed", "gussed"), "did you mean 'guessed'?"),
    (
        "sequence item",
        lambda p: _stub(p)["data"].update(sequence=[{"stauts": 500}]),
        "sequence[0].stauts: unknown field; did you mean 'status'?",
    ),
]


VALUES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("strategy", lambda p: _stub(p).update(strategy="stub_htp"), "did you mean 'stub_http'?"),
    ("match", lambda p: _stub(p)["data"].update(match="prefx"), "did you mean 'prefix'?"),
    ("method", lambda p: _stub(p)["data"].update(method="GTE"), "did you mean 'GET'?"),
]


def _refused(
    plan_file: Path, capsys: pytest.CaptureFixture[str], edit: Callable[[dict[str, Any]], None]
) -> str:
    """Apply ``edit`` to the plan on disk, run: the plan is refused (exit 3); its stderr."""
    plan = json.loads(plan_file.read_text())
    edit(plan)
    plan_file.write_text(json.dumps(plan, indent=2))
    capsys.readouterr()
    assert main(["run", "prog.py"]) == 3
    return capsys.readouterr().err


@pytest.mark.parametrize(("name", "edit", "needle"), VALUES, ids=[e[0] for e in VALUES])
def test_a_misspelt_value_is_named_with_the_closest_valid_one(
    plan_file: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    edit: Callable[[dict[str, Any]], None],
    needle: str,
) -> None:
    err = _refused(plan_file, capsys, edit)
    assert err.count("\n") == 1 and f".{name}: expected one of" in err and needle in err, err


@pytest.mark.parametrize(("name", "edit", "needle"), EDITS, ids=[e[0] for e in EDITS])
def test_an_unknown_key_is_named_with_the_closest_valid_one(
    plan_file: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    edit: Callable[[dict[str, Any]], None],
    needle: str,
) -> None:
    err = _refused(plan_file, capsys, edit)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "unknown field" in err and needle in err, err


def test_data_fields_are_checked_per_strategy(
    plan_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = json.loads(plan_file.read_text())
    stub = _stub(plan)
    stub["strategy"], stub["data"] = "fixed_env", {"name": "X", "vaule": "1"}
    stub["kind"] = "environment"
    plan_file.write_text(json.dumps(plan))
    capsys.readouterr()
    assert main(["run", "prog.py"]) == 3
    err = capsys.readouterr().err
    assert "data.vaule: unknown field for fixed_env; did you mean 'value'?" in err


def test_a_plan_for_another_file_is_refused(
    plan_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy("prog.py", "other.py")
    capsys.readouterr()
    assert main(["run", "other.py", "--plan", str(plan_file)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "changed since" not in err
    assert "prog.py" in err and "other.py" in err and "another file" in err


def test_comments_are_allowed_and_a_correct_plan_runs(
    plan_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = json.loads(plan_file.read_text())
    _stub(plan)["comment"] = "checked by hand"
    _stub(plan)["data"]["comment"] = "the total is made up"
    plan_file.write_text(json.dumps(plan))
    assert main(["run", "prog.py"]) == 0


def test_check_refuses_a_plan_for_another_file(
    plan_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("deal.py").write_text(
        "import random\n\n\ndef shuffle(xs: list[int]) -> list[int]:\n"
        "    xs = list(xs)\n    random.shuffle(xs)\n    return xs\n"
    )
    capsys.readouterr()
    assert main(["check", "deal.py::shuffle", "--plan", str(plan_file)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "another file" in err and "deal.py" in err
