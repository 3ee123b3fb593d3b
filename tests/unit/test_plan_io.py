"""Plan files: validated loading, atomic saving, hand-edit protection, staleness."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.errors import InputError, PlanError
from automock.pipeline import plan_for_run, stale_entries
from automock.plan.io import (
    fingerprint,
    is_hand_edited,
    load_plan,
    plan_path_for,
    save_plan,
    source_changed,
)
from automock.plan.model import Plan, PlanEntry

SOURCE = """\
import random
import time


def main():
    print(random.random(), time.time())


main()
"""


def sample_plan() -> Plan:
    return Plan(
        source_path="prog.py",
        entries=(PlanEntry(line=6, col=10, kind="random", api="random.random", strategy="seed"),),
    )


def test_plan_path_for_uses_the_stem() -> None:
    assert plan_path_for("src/app/job.py") == Path("fixtures/job.automock.json")
    assert plan_path_for("job.py", "out") == Path("out/job.automock.json")


def test_save_then_load_round_trips(tmp_path: Path) -> None:
    plan = sample_plan()
    path = save_plan(plan, tmp_path / "p.automock.json")
    assert load_plan(path) == plan
    data = json.loads(path.read_text())
    assert data["automock"] == 2
    assert data["generated"] == fingerprint(data)


def test_json_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.automock.json"
    path.write_text('{\n  "automock": 1,\n  "seed": 3,,\n}\n')
    with pytest.raises(PlanError) as err:
        load_plan(path)
    assert f"{path}:3:13:" in str(err.value)  # the second comma
    assert "invalid JSON" in str(err.value)


def test_field_error_names_the_field_and_expected_form(tmp_path: Path) -> None:
    data = sample_plan().to_dict()
    data["entries"][0]["strategy"] = "teleport"
    path = tmp_path / "p.automock.json"
    path.write_text(json.dumps(data))
    with pytest.raises(PlanError) as err:
        load_plan(path)
    message = str(err.value)
    assert "entries[0].strategy" in message and "expected one of" in message and "freeze" in message
    assert str(path) in message


def test_missing_plan_says_how_to_create_one(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match="automock draft"):
        load_plan(tmp_path / "nope.automock.json")


def test_hand_edited_plan_is_not_overwritten_without_force(tmp_path: Path) -> None:
    path = save_plan(sample_plan(), tmp_path / "p.automock.json")
    assert not is_hand_edited(path)
    data = json.loads(path.read_text())
    data["seed"] = 42
    path.write_text(json.dumps(data, indent=2))
    assert is_hand_edited(path)
    with pytest.raises(PlanError, match="edited by hand"):
        save_plan(sample_plan(), path)
    assert json.loads(path.read_text())["seed"] == 42  # untouched
    save_plan(sample_plan(), path, force=True)
    assert json.loads(path.read_text())["seed"] == 0


def test_reformatting_is_not_an_edit_but_a_plan_written_by_hand_is(tmp_path: Path) -> None:
    path = save_plan(sample_plan(), tmp_path / "p.automock.json")
    path.write_text(json.dumps(json.loads(path.read_text()), indent=4, sort_keys=True))
    assert not is_hand_edited(path)
    save_plan(sample_plan().with_seed(5), path)  # allowed: content was automock's
    handmade = tmp_path / "h.automock.json"
    handmade.write_text(json.dumps({"automock": 1}))
    assert is_hand_edited(handmade)
    with pytest.raises(PlanError):
        save_plan(sample_plan(), handmade)


def test_failed_write_raises_plan_error_and_leaves_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "fixtures"
    blocker.write_text("not a directory")
    with pytest.raises(PlanError, match="fixtures"):
        save_plan(sample_plan(), blocker / "p.automock.json")
    assert blocker.read_text() == "not a directory"


def test_unchanged_source_has_no_stale_entries(tmp_path: Path) -> None:
    from automock.drafting import draft

    plan = draft(SOURCE)
    assert not source_changed(plan, SOURCE)
    assert stale_entries(plan, SOURCE) == ()


def test_moved_and_removed_touchpoints_are_reported() -> None:
    from automock.drafting import draft

    plan = draft(SOURCE)
    changed = SOURCE.replace("def main():", "# a comment\n\ndef main():").replace(
        ", time.time()", ""
    )
    assert source_changed(plan, changed)
    stale = {s.entry.api: s.reason for s in stale_entries(plan, changed)}
    assert stale["random.random"] == "line 6: random.random moved to line 8"
    assert stale["time.time"] == "line 6: time.time is no longer in the source"


def test_plan_for_run_drafts_and_saves_when_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("prog.py").write_text(SOURCE)
    plan, notes = plan_for_run("prog.py")
    target = Path("fixtures/prog.automock.json")
    assert target.is_file() and load_plan(target) == plan
    assert plan.source_path == "prog.py"
    assert any("drafted a new plan" in n for n in notes)
    again, notes2 = plan_for_run("prog.py", seed=7)
    assert notes2 == [] and again.seed == 7 and again.with_seed(0) == plan


def test_plan_for_run_without_save_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("prog.py").write_text(SOURCE)
    plan_for_run("prog.py", save=False)
    assert not Path("fixtures").exists()


def test_plan_for_run_warns_about_a_changed_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("prog.py").write_text(SOURCE)
    plan_for_run("prog.py")
    Path("prog.py").write_text("\n\n" + SOURCE)
    plan, notes = plan_for_run("prog.py")
    assert any("changed since the plan was drafted" in n for n in notes)
    assert any("stale entry: line 6: random.random moved to line 8" in n for n in notes)
    assert plan.entries[0].line == 6  # the plan on disk is used as is


def test_the_located_plan_is_here_then_beside_the_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from automock.pipeline import existing_plan, load_or_draft, new_plan_dir

    monkeypatch.chdir(tmp_path)
    (tmp_path / "src" / "fixtures").mkdir(parents=True)
    Path("src/prog.py").write_text(SOURCE)
    assert existing_plan("src/prog.py") is None
    assert new_plan_dir("src/prog.py") == "fixtures"  # inside the current directory
    beside = tmp_path / "src" / "fixtures" / "prog.automock.json"
    save_plan(sample_plan(), beside)
    assert existing_plan("src/prog.py") == "src/fixtures/prog.automock.json"
    save_plan(sample_plan(), "fixtures/prog.automock.json")
    assert existing_plan("src/prog.py") == "fixtures/prog.automock.json"
    loaded = load_or_draft("src/prog.py")
    assert loaded.path == Path("fixtures/prog.automock.json") and loaded.plan == sample_plan()


def test_load_or_draft_saves_a_draft_where_the_locator_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from automock.pipeline import load_or_draft

    (tmp_path / "prog.py").write_text(SOURCE)
    outside = tmp_path / "prog.py"
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # the source is outside the current directory: saved beside it
    loaded = load_or_draft(outside)
    assert loaded.path == tmp_path / "fixtures" / "prog.automock.json" and loaded.path.is_file()
    assert loaded.label == str(loaded.path) and any("drafted a new plan" in n for n in loaded.notes)
    with pytest.raises(InputError, match="plan_file"):
        load_or_draft(outside, tmp_path / "missing.json")
