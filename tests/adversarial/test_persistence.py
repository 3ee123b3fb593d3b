"""Nothing one run leaves behind is visible to the next: repeated runs and batch candidates each
start from a fresh workdir, $TMPDIR, /tmp and /dev/shm."""

from __future__ import annotations

import errno
import json
from typing import Any

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


def _network_state(stdout: str, mark: str) -> Any:
    for line in stdout.splitlines():
        if line.startswith(mark + " "):
            return json.loads(line[len(mark) + 1 :])
    raise AssertionError(f"no {mark} line in\n{stdout}")


def _check_network_fresh(stdouts: list[str], *, refused: bool = False) -> None:
    """Each run saw a network namespace nothing had used (every counter 0, no socket), and its
    own traffic did move the counters (else the probe proves nothing); with ``refused`` (a
    batch lane's reused namespace) it could make no socket at all: all 13 refused by seccomp."""
    for out in stdouts:
        before, after = _network_state(out, "NETBEFORE"), _network_state(out, "NETAFTER")
        assert before and all(count == 0 for count in before.values()), before
        moved = {name for name in after if after[name] != before.get(name)}
        if refused:
            assert _network_state(out, "REFUSED") == [errno.EPERM] * 13, out
            assert not moved, (before, after)
        else:
            assert _network_state(out, "REFUSED") == [], out
            assert moved, (before, after)


def test_repeated_runs_start_with_a_fresh_network_namespace() -> None:
    from automock.pipeline.run import run_file

    report = run_file(program("persist_network"), timeout=10, repeat=2)
    runs = report.to_dict()["runs"]
    assert len(runs) == 2, report
    _check_network_fresh([run["stdout"] for run in runs])


def test_batch_candidates_start_with_a_fresh_network_namespace() -> None:
    """A lane's namespace is reused only where no candidate can make a socket in it (its
    counters would carry bits from one candidate to the next: docs/security.md): each
    candidate still starts with every counter at 0 and no socket listed."""
    outcomes = batch_attacks([("persist_network", ())] * 4, timeout=10)
    _check_network_fresh([outcome.stdout for outcome in outcomes], refused=True)
