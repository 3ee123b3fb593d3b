"""Golden plans: the checked-in fixtures/ plans equal a fresh offline draft and match the schema.

After an intended change to the offline drafter, refresh them with
``python -m automock.drafting.goldens`` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from automock.drafting.goldens import golden_texts, main
from automock.drafting.llm import plan_schema, tool_schema
from automock.plan.io import is_hand_edited, load_plan

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(ROOT)
    return ROOT


def test_every_example_has_a_golden_plan_equal_to_a_fresh_draft(at_root: Path) -> None:
    texts = golden_texts()
    assert {p.name for p in texts} == {f"{e.stem}.automock.json" for e in EXAMPLES}
    for path, text in texts.items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} is out of date; run: python -m automock.drafting.goldens"
        )


def test_check_mode_reports_a_stale_golden(tmp_path: Path, at_root: Path) -> None:
    out = tmp_path / "fixtures"
    assert main(["--out", str(out)]) == 0
    assert main(["--out", str(out), "--check"]) == 0
    stale = out / "raffle.automock.json"
    stale.write_text(stale.read_text().replace('"seed": 0', '"seed": 1'))
    assert main(["--out", str(out), "--check"]) == 1


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_golden_plan_is_valid_and_untouched(example: Path) -> None:
    path = ROOT / "fixtures" / f"{example.stem}.automock.json"
    data = json.loads(path.read_text())
    jsonschema.validate(data, plan_schema(), cls=jsonschema.Draft202012Validator)
    plan = load_plan(path)
    assert plan.entries, "every example touches something nondeterministic"
    assert not is_hand_edited(path)
    assert plan.source_path == f"examples/{example.name}"


def test_schema_is_valid_2020_12_and_rejects_what_the_model_rejects() -> None:
    schema = plan_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    good = {
        "automock": 1,
        "entries": [{"line": 1, "kind": "time", "api": "time.time", "strategy": "freeze"}],
    }
    assert validator.is_valid(good)
    for bad in (
        {"automock": 3},
        {"automock": 1, "unknown": True},
        {"automock": 1, "entries": [{**good["entries"][0], "strategy": "teleport"}]},
        {
            "automock": 1,
            "entries": [{**good["entries"][0], "strategy": "stub_http", "data": {"status": 200}}],
        },
    ):
        assert not validator.is_valid(bad), bad


def test_tool_schema_is_self_contained() -> None:
    schema = tool_schema()
    assert "$ref" not in json.dumps(schema)
    assert schema["type"] == "object" and schema["required"] == ["entries"]
    jsonschema.Draft202012Validator.check_schema(schema)
