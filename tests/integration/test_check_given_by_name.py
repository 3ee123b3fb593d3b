"""Distribution properties given by hand with their parameters named the short way (issue 30).

``--property proportional --option weights=scores`` used to run the shuffle check on a
weighted pick (a TypeError reported as the verdict), and ``tournament`` took only a JSON
mapping; a property lacking what it needs ran as some other check. The help text's own
spelling now works, and a missing or misspelt parameter is an input error (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import written_module

SOURCE = """
import random


def wheel(members, scores):
    spin = random.uniform(0, sum(scores))
    reached = 0.0
    for member, score in zip(members, scores):
        reached += score
        if reached >= spin:
            return member
    return members[-1]


def wheel_off_by_one(members, scores):
    spin = random.uniform(0, sum(scores))
    reached = 0.0
    for i, score in enumerate(scores):
        reached += score
        if reached >= spin:
            return members[i - 1]  # the pick lands one member early
    return members[-1]


def wheel_sized(members, scores, size):
    spin = random.uniform(0, sum(scores))
    reached = 0.0
    for i in range(size):
        reached += scores[i]
        if reached >= spin:
            return members[i]
    return members[-1]


def contest(members, scores, k):
    entrants = random.sample(range(len(members)), k)
    return members[max(entrants, key=lambda i: scores[i])]


def contest_skipping_last(members, scores, k):
    entrants = random.sample(range(len(members) - 1), k)
    return members[max(entrants, key=lambda i: scores[i])]
"""


module = written_module("picks.py", SOURCE)


def _check(
    capsys: pytest.CaptureFixture[str], module: Path, function: str, *argv: str
) -> tuple[int, str]:
    from automock.cli import main

    code = main(["check", f"{module}::{function}", "--runs", "600", "--json", *argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _verdicts(out: str) -> dict[str, bool]:
    return {r["name"]: r["passed"] for r in json.loads(out)["results"]}


def test_a_weighted_pick_is_checked_by_its_weights_parameters_name(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = ("--property", "proportional", "--option", "weights=scores")
    code, out = _check(capsys, module, "wheel", *given)
    assert code == 0 and _verdicts(out) == {"proportional": True}, out
    code, out = _check(capsys, module, "wheel_off_by_one", *given)
    assert code == 1 and _verdicts(out) == {"proportional": False}, out
    assert "TypeError" not in out


def test_a_third_required_parameter_is_taken_as_the_lists_size(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _check(
        capsys, module, "wheel_sized", "--property", "proportional", "--option", "weights=scores"
    )
    assert code == 0 and _verdicts(out) == {"proportional": True}, out


def test_a_tournament_is_given_its_three_parameters_in_one_option(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = ("--property", "tournament", "--option", "tournament=members,scores,k")
    code, out = _check(capsys, module, "contest", *given)
    assert code == 0 and _verdicts(out) == {"tournament": True}, out
    code, out = _check(capsys, module, "contest_skipping_last", *given)
    assert code == 1 and _verdicts(out) == {"tournament": False}, out


@pytest.mark.parametrize(
    ("prop", "options", "named"),
    [
        ("proportional", (), "--option weights=PARAM"),
        ("proportional", ("--option", "weights=fitness"), "no parameter 'fitness'"),
        ("tournament", ("--option", "tournament=members"), "--option tournament=LIST"),
        ("estimates", (), "--option value=NUMBER"),
    ],
)
def test_a_distribution_property_lacking_its_parameters_is_an_input_error(
    module: Path,
    capsys: pytest.CaptureFixture[str],
    prop: str,
    options: tuple[str, ...],
    named: str,
) -> None:
    code, out = _check(capsys, module, "wheel", "--property", prop, *options)
    assert code == 2, out
    assert named in out and "Traceback" not in out
