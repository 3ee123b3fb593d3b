"""`automock run` uses the plan in fixtures/ when present, else drafts and saves one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from automock.cli import main

REPO = Path(__file__).resolve().parents[2]


def test_run_drafts_and_saves_a_plan_then_reuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(REPO / "examples" / "weather_report.py", tmp_path / "weather.py")

    assert main(["run", "weather.py", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    plan_file = tmp_path / "fixtures" / "weather.automock.json"
    assert plan_file.is_file()
    assert first["unmocked"] == []
    assert "Lisbon" in first["stdout"]

    # A person edits the drafted body; the next run must serve the edit.
    plan = json.loads(plan_file.read_text())
    for entry in plan["entries"]:
        if entry["strategy"] == "stub_http":
            entry["data"]["json"]["current"]["temp"] = -42.5
    plan_file.write_text(json.dumps(plan, indent=2))
    assert main(["run", "weather.py", "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert "-42.5 C" in second["stdout"]


def test_run_reports_a_changed_source_as_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(REPO / "examples" / "raffle.py", tmp_path / "raffle.py")
    assert main(["run", "raffle.py"]) == 0
    capsys.readouterr()
    source = tmp_path / "raffle.py"
    source.write_text(source.read_text().replace("PRIZES = [", "import time\nPRIZES = ["))
    assert main(["run", "raffle.py"]) == 0
    err = capsys.readouterr().err
    assert "changed since the plan was drafted" in err


def test_no_save_leaves_no_plan_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(REPO / "examples" / "raffle.py", tmp_path / "raffle.py")
    assert main(["run", "raffle.py", "--no-save"]) == 0
    assert not (tmp_path / "fixtures").exists()


def test_explicit_plan_of_a_changed_source_lists_its_stale_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(REPO / "examples" / "raffle.py", tmp_path / "raffle.py")
    assert main(["draft", "raffle.py", "--out", "plans"]) == 0
    source = tmp_path / "raffle.py"
    source.write_text(source.read_text().replace("    random.shuffle(pool)\n", ""))
    capsys.readouterr()
    assert main(["run", "raffle.py", "--plan", "plans/raffle.automock.json"]) == 0
    err = capsys.readouterr().err
    assert "changed since the plan was drafted" in err
    assert "stale entry" in err and "random.shuffle" in err
