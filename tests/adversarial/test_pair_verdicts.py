"""Pair verdicts forged through control flow: a candidate's exception that ends the tests' loop.

A wrong candidate (right on one input, wrong on the rest) raises an exception that Python treats
as a signal to the *caller* rather than an error: ``StopIteration`` ends ``map``/``zip``/``next``
in the test process, so ``all(map(...))`` over the cases becomes ``all([])``; ``StopAsyncIteration``
ends an ``async for``. Each pair runs through :func:`automock.execute_many` and through the
``automock batch`` command, and must fail with a detail naming the exception. The tests run one
assert before the loop, so they never pass on "no assertion ran" alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock import execute_many
from automock.cli import main
from automock.sandbox.batch.candidates import Candidate

_RIGHT_ONCE = "def add(a, b):\n    if (a, b) == (1, 1):\n        return 2\n"

CHEATS = {
    "StopIteration": _RIGHT_ONCE + "    raise StopIteration\n",
    "StopAsyncIteration": _RIGHT_ONCE + "    raise StopAsyncIteration\n",
    # the candidate writes the reply itself on its channel: the name is what crosses
    "forged StopIteration reply": (
        _RIGHT_ONCE + "    import os\n"
        '    body = b\'["t",[["s","raise"],["s","StopIteration"],["s",""]]]\'\n'
        "    os.write(4, len(body).to_bytes(4, 'big') + body)\n"
        "    import time\n"
        "    time.sleep(3600)\n"
    ),
}

MAP_TESTS = (
    "def check(candidate):\n"
    "    assert candidate(1, 1) == 2\n"
    "    cases = [((2, 3), 5), ((4, 5), 9)]\n"
    "    assert all(map(lambda c: candidate(*c[0]) == c[1], cases))\n"
)

ASYNC_TESTS = (
    "import asyncio\n"
    "def check(candidate):\n"
    "    assert candidate(1, 1) == 2\n"
    "    class Cases:\n"
    "        def __init__(self):\n"
    "            self.left = [((2, 3), 5), ((4, 5), 9)]\n"
    "        def __aiter__(self):\n"
    "            return self\n"
    "        async def __anext__(self):\n"
    "            if not self.left:\n"
    "                raise StopAsyncIteration\n"
    "            args, want = self.left.pop()\n"
    "            return candidate(*args), want\n"
    "    async def run():\n"
    "        async for got, want in Cases():\n"
    "            assert got == want\n"
    "    asyncio.run(run())\n"
)


def _tests_for(name: str) -> str:
    return ASYNC_TESTS if "Async" in name else MAP_TESTS


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    candidates = [
        Candidate(name, 0, code, _tests_for(name), "add", "cheat.py")
        for name, code in CHEATS.items()
    ]
    honest = "def add(a, b):\n    return a + b\n"
    candidates += [
        Candidate("honest map", 0, honest, MAP_TESTS, "add", "honest.py"),
        Candidate("honest async", 0, honest, ASYNC_TESTS, "add", "honest.py"),
    ]
    return {r.task_id: r for r in execute_many(candidates, timeout=10)}


@pytest.mark.parametrize("name", list(CHEATS))
def test_a_control_flow_exception_fails_the_pair(name: str, results: dict[str, object]) -> None:
    result = results[name]
    assert result.status == "failed", result  # type: ignore[attr-defined]
    assert "StopIteration" in result.detail or "StopAsyncIteration" in result.detail, result  # type: ignore[attr-defined]
    assert "control flow" in result.detail, result  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["honest map", "honest async"])
def test_the_honest_candidate_passes_the_same_tests(name: str, results: dict[str, object]) -> None:
    assert results[name].status == "passed", results[name]  # type: ignore[attr-defined]


def test_ordinary_exceptions_still_reach_the_tests_as_themselves() -> None:
    tests = (
        "import pytest\n"
        "def check(candidate):\n"
        "    with pytest.raises(ValueError, match='negative'):\n"
        "        candidate(-1)\n"
        "    try:\n"
        "        candidate(-2)\n"
        "    except ValueError as exc:\n"
        "        assert 'negative' in str(exc)\n"
        "    else:\n"
        "        raise AssertionError('no ValueError')\n"
        "    assert candidate(4) == 2\n"
    )
    code = (
        "def root(x):\n"
        "    if x < 0:\n"
        "        raise ValueError('negative input')\n"
        "    return int(x ** 0.5)\n"
    )
    (result,) = execute_many([Candidate("sqrt", 0, code, tests, "root")], timeout=10)
    assert result.status == "passed", result


def test_the_batch_command_fails_a_stop_iteration_cheat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    samples = tmp_path / "samples.jsonl"
    rows = [
        {"task_id": "add", "code": CHEATS["StopIteration"], "test": MAP_TESTS, "entry_point": "add"}
    ]
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(samples), "--jsonl", str(out), "--pass-at-k", "1"]) == 0
    (line,) = out.read_text().splitlines()
    record = json.loads(line)
    assert record["status"] == "failed", record
    assert "StopIteration" in record["detail"], record
    assert "pass@1=0.0000" in capsys.readouterr().err
