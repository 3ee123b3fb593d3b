"""A pair passes only on tests that ran, checked something and called the candidate.

Wrong candidates against tests that, before this was built, were silently not run (pytest-style
``def test_...():`` functions, a ``check`` with no entry point to call it with) or checked
nothing (no ``assert`` executed, the candidate never called): each pair must fail with a detail
saying why. The right candidate passes the same pytest-style tests (parametrized, by the
entry point's name or ``candidate``, in classes, as a ``unittest.TestCase``). Run through
:func:`automock.execute_many` and the ``automock batch`` command.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock import execute_many
from automock.cli import main
from automock.sandbox.batch.candidates import Candidate

RIGHT = "def add(a, b):\n    return a + b\n"
WRONG = "def add(a, b):\n    return 0\n"

PYTEST_BY_NAME = "def test_add():\n    assert add(2, 3) == 5\n"
PYTEST_CANDIDATE = "def test_add():\n    assert candidate(2, 3) == 5\n"
PYTEST_PARAMETRIZED = (
    "import pytest\n"
    "@pytest.mark.parametrize('a, b, want', [(0, 0, 0), (2, 3, 5), pytest.param(4, 4, 8)])\n"
    "def test_add(a, b, want):\n"
    "    assert add(a, b) == want\n"
)
PYTEST_CLASS = "class TestAdd:\n    def test_small(self):\n        assert add(2, 3) == 5\n"
UNITTEST_CASE = (
    "import unittest\n"
    "class AddTest(unittest.TestCase):\n"
    "    pass\n"
    "class TestAdd(unittest.TestCase):\n"
    "    def test_small(self):\n"
    "        self.assertEqual(add(2, 3), 5)\n"
)
PYTEST_FIXTURE = "def test_add(tmp_path):\n    assert add(2, 3) == 5\n"
NO_ASSERT = "def check(candidate):\n    candidate(2, 3)\n"
NEVER_CALLED = "def check(candidate):\n    assert callable(candidate)\n"
CHECK_ONLY = "def check(candidate):\n    assert candidate(2, 3) == 5\n"

RUN = {  # tests that a wrong candidate fails and the right one passes
    "pytest, by the entry point's name": PYTEST_BY_NAME,
    "pytest, as candidate": PYTEST_CANDIDATE,
    "pytest, parametrized": PYTEST_PARAMETRIZED,
    "pytest, a Test class": PYTEST_CLASS,
    "unittest.TestCase": UNITTEST_CASE,
    "check() by if/raise": (
        "def check(candidate):\n    if candidate(2, 3) != 5:\n        raise AssertionError('no')\n"
    ),
}
CHECK_NOTHING = {  # tests that no candidate passes, and why
    "a fixture the pair cannot give": (PYTEST_FIXTURE, "add", "'tmp_path'"),
    "no assert executed": (NO_ASSERT, "add", "ran no check"),
    "the candidate never called": (NEVER_CALLED, "add", "never called"),
    "check() with no entry point": (CHECK_ONLY, None, "ran no check"),
}


@pytest.fixture(scope="module")
def results() -> dict[tuple[str, str], object]:
    cands = []
    for name, tests in RUN.items():
        cands += [Candidate(name, 0, WRONG, tests, "add"), Candidate(name, 1, RIGHT, tests, "add")]
    for name, (tests, entry, _) in CHECK_NOTHING.items():
        cands.append(Candidate(name, 0, RIGHT, tests, entry))
    out = execute_many(cands, timeout=20)
    return {(r.task_id, "right" if r.index else "wrong"): r for r in out}


@pytest.mark.parametrize("name", list(RUN))
def test_pytest_style_tests_run_and_fail_a_wrong_candidate(
    name: str, results: dict[tuple[str, str], object]
) -> None:
    result = results[(name, "wrong")]
    assert result.status == "failed", result  # type: ignore[attr-defined]
    assert "AssertionError" in result.detail, result  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", list(RUN))
def test_pytest_style_tests_pass_the_right_candidate(
    name: str, results: dict[tuple[str, str], object]
) -> None:
    assert results[(name, "right")].status == "passed", results[(name, "right")]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", list(CHECK_NOTHING))
def test_tests_that_check_nothing_never_pass(
    name: str, results: dict[tuple[str, str], object]
) -> None:
    result = results[(name, "wrong")]
    assert result.status == "failed", result  # type: ignore[attr-defined]
    assert CHECK_NOTHING[name][2] in result.detail, result  # type: ignore[attr-defined]


def test_a_tuple_pair_with_top_level_asserts_still_passes() -> None:
    got = execute_many([(RIGHT, "assert add(2, 3) == 5"), (WRONG, "assert add(2, 3) == 5")])
    assert [r.status for r in got] == ["passed", "failed"], got


def test_the_batch_command_runs_pytest_style_tests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    samples = tmp_path / "samples.jsonl"
    rows = [
        {"task_id": "add", "code": code, "test": PYTEST_PARAMETRIZED, "entry_point": "add"}
        for code in (WRONG, WRONG, RIGHT)
    ] + [{"task_id": "noop", "code": RIGHT, "test": NO_ASSERT, "entry_point": "add"}]
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(samples), "--jsonl", str(out), "--pass-at-k", "1"]) == 0
    statuses = [json.loads(line)["status"] for line in out.read_text().splitlines()]
    assert statuses == ["failed", "failed", "passed", "failed"], statuses
    err = capsys.readouterr().err
    assert "add: 1/3 passed  pass@1=0.3333" in err, err
    assert "noop: 0/1 passed  pass@1=0.0000" in err, err
