"""How ``automock run --repeat`` words the first difference between its runs."""

from __future__ import annotations

from automock.sandbox.child.status import Status
from automock.sandbox.run.process import _first_divergence
from automock.sandbox.run.result import RunOutcome

ROWS = "0 0.89\n1 0.84\n"


def _run(
    stdout: str, status: Status = Status.PASSED, code: int = 0, detail: str = ""
) -> RunOutcome:
    return RunOutcome(code, status, stdout, "", code, detail=detail)


def test_a_repeat_cut_short_is_named_before_its_output() -> None:
    """A repeat killed at the timeout printed less: said first, so the missing lines are not
    read as the program drawing differently."""
    killed = _run(ROWS, Status.TIMEOUT, 124, "wall-clock timeout; the process group was killed")

    diff = _first_divergence([_run(ROWS + "pool [0.42]\n"), killed])

    assert diff.startswith(
        "--- run 1 status\n+++ run 2 status\n-passed, exit code 0\n"
        "+timeout, exit code 124 (wall-clock timeout; the process group was killed)\n"
        "--- run 1 stdout\n+++ run 2 stdout\n"
    )
    assert diff.endswith("-pool [0.42]\n")


def test_runs_that_ended_alike_show_only_their_output() -> None:
    diff = _first_divergence([_run(ROWS), _run(ROWS), _run("0 0.89\n1 0.5\n")])

    assert diff.startswith("--- run 1 stdout\n+++ run 3 stdout\n")
    assert _first_divergence([_run(ROWS), _run(ROWS)]) == ""
    assert _first_divergence([_run(ROWS), _run(ROWS, Status.FAILED, 1)]).startswith(
        "--- run 1 status\n+++ run 2 status\n-passed, exit code 0\n+failed, exit code 1\n"
    )
