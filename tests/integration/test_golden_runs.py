"""Each example, run twice in the sandbox with its golden plan, exits 0 with identical output."""

from __future__ import annotations

from pathlib import Path

import pytest

from automock.plan.io import load_plan

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

try:
    from automock.pipeline.run import run_file
except ImportError:  # pragma: no cover - the sandbox is a separate module
    run_file = None  # type: ignore[assignment]


@pytest.mark.skipif(run_file is None, reason="automock.pipeline.run.run_file is not available")
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs_deterministically_with_its_golden_plan(example: Path) -> None:
    plan = load_plan(ROOT / "fixtures" / f"{example.stem}.automock.json")
    report = run_file(example, plan, repeat=2, timeout=30)
    assert report.exit_code == 0, report.stderr
    assert report.status == "passed"
    assert report.unmocked == ()
    first, second = report.runs
    assert first.stdout == second.stdout and first.stdout.strip()
    assert report.deterministic is True
