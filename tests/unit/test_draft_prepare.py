"""prepare(): touchpoints + plan + a sandboxed harness, and the worked example in the docs."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from automock.refinement import Prepared, prepare

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "refinement-loop.md"

SOURCE = """\
import random
import requests

r = requests.get("https://api.example.com/v1/users")
users = r.json()["users"]
random.shuffle(users)
print([u["login"] for u in users])
"""


def test_prepare_returns_touchpoints_and_a_plan_for_them() -> None:
    prepared = prepare(SOURCE, seed=4)
    assert isinstance(prepared, Prepared)
    assert {t.api for t in prepared.touchpoints} == {"requests.get", "random.shuffle"}
    assert prepared.plan.seed == 4
    assert {e.api for e in prepared.plan.entries} == {"requests.get", "random.shuffle"}
    (stub,) = prepared.plan.http_stubs()
    assert all(isinstance(u["login"], str) for u in stub.json["users"])
    assert prepared.warnings == ()
    assert prepared.to_dict()["plan"]["seed"] == 4


def test_harness_runs_the_source_and_candidates_under_the_same_plan() -> None:
    prepared = prepare(SOURCE)
    first = prepared.run(repeat=2)
    assert first.exit_code == 0 and first.deterministic is True
    candidate = SOURCE.replace("print([", "print(len(users), [")
    second = prepared.run(candidate)
    assert second.exit_code == 0
    assert second.stdout.startswith("2 ") and second.stdout.endswith(first.stdout[1:])


def test_feedback_names_the_unmocked_request_and_the_fix() -> None:
    prepared = prepare(SOURCE)
    report = prepared.run(SOURCE + 'requests.get("https://api.example.com/v2/teams")\n')
    assert report.exit_code == 5
    text = prepared.feedback(report)
    assert text.startswith("exit code 5 (unmocked)")
    assert "https://api.example.com/v2/teams" in text and "add a stub_http entry" in text


def test_llm_drafter_without_key_is_a_warning_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    prepared = prepare(SOURCE, drafter="llm")
    assert prepared.plan.drafter == "rules"
    assert "ANTHROPIC_API_KEY" in prepared.warnings[0]


def test_the_worked_example_in_the_docs_runs_and_prints_what_it_says() -> None:
    text = DOC.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    shown = re.search(r"```text\n(.*?)```", text, re.S)
    assert code is not None and shown is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(DOC), "exec"), {"__name__": "docs_example"})
    printed = out.getvalue().splitlines()
    expected = shown.group(1).splitlines()
    head = expected[: expected.index("...")]
    assert printed[: len(head)] == head
    assert printed[-1] == expected[-1]
