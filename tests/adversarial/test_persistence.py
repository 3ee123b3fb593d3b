"""Nothing one run leaves behind is visible to the next: repeated runs and batch candidates each
start from a fresh workdir, $TMPDIR, /tmp and /dev/shm."""

from __future__ import annotations

import json

from .harness import batch_attacks, program


def test_repeated_runs_start_fresh() -> None:
    from automock.pipeline.run import run_file

    report = run_file(program("persist_state"), timeout=10, repeat=2)
    outputs = [run["stdout"] for run in report.to_dict()["runs"]]
    assert len(outputs) == 2, report
    for out in outputs:
        assert "PLANTED [" in out and "PLANTED []" not in out, out
        assert "SEEN []" in out, out
    assert report.deterministic is True, json.dumps(report.to_dict())[:2000]


def test_batch_candidates_start_fresh() -> None:
    outcomes = batch_attacks([("persist_state", ())] * 4, timeout=10)
    for outcome in outcomes:
        assert "PLANTED [" in outcome.stdout and "PLANTED []" not in outcome.stdout, (
            outcome.explain()
        )
        assert "SEEN []" in outcome.stdout, outcome.explain()
