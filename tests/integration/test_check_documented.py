"""``automock check`` holds a function to the examples its docstring gives (issue 30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main
from tests.conftest import check_json, written_module

SOURCE = '''
import random


def kth_smallest(items, k):
    """The k-th smallest of items, counting from 1.

    >>> kth_smallest([5, 1, 4, 2, 3], 2)
    2
    >>> kth_smallest([9, 7, 8], 3)
    9
    """
    pivot = random.choice(items)
    smaller = [x for x in items if x < pivot]
    same = [x for x in items if x == pivot]
    if k <= len(smaller):
        return kth_smallest(smaller, k)
    if k <= len(smaller) + len(same):
        return pivot
    return kth_smallest([x for x in items if x > pivot], k - len(smaller) - len(same))


def kth_smallest_repeats(items, k):
    """The k-th smallest of items, counting from 1 (drops the pivot's twins).

    >>> kth_smallest_repeats([5, 1, 4, 2, 3], 2)
    2
    """
    pivot = random.choice(items)
    smaller = [x for x in items if x < pivot]
    larger = [x for x in items if x > pivot]
    if len(smaller) == k - 1:
        return pivot
    if len(smaller) >= k:
        return kth_smallest_repeats(smaller, k)
    return kth_smallest_repeats(larger, k - len(smaller) - 1)


def kth_smallest_off(items, k):
    """The k-th smallest of items, counting from 1.

    >>> kth_smallest_off([5, 1, 4, 2, 3], 2)
    2
    """
    return sorted(items)[k]


def block_size(length):
    """A block size above 1 that divides length.

    >>> random.seed(5)
    >>> block_size(12)
    12
    """
    return random.choice([b for b in range(2, length + 1) if length % b == 0])


def block_size_off(length):
    """A block size above 1 that divides length.

    >>> random.seed(5)
    >>> block_size_off(12)
    12
    """
    return random.choice([b for b in range(1, length + 1) if length % b == 0])


def roll():
    """One throw of a die.

    >>> roll()
    4
    """
    return random.randint(1, 6)


def scaled(values):
    """Values scaled by the module's factor.

    >>> scaled([1, 2])
    [3, 6]
    >>> helper_from_elsewhere([1])
    [1]
    """
    return [3 * v for v in values]
'''


module = written_module("documented.py", SOURCE)


def _examples(report: dict) -> dict:  # type: ignore[type-arg]
    (result,) = [r for r in report["results"] if r["name"] == "examples"]
    return result  # type: ignore[no-any-return]


@pytest.mark.parametrize("function", ["kth_smallest", "block_size", "scaled"])
def test_examples_that_hold_on_every_seed_pass(
    module: Path, capsys: pytest.CaptureFixture[str], function: str
) -> None:
    code, report = check_json(capsys, module, function, 30)
    assert code == 0, report["results"]
    (prop,) = [p for p in report["properties"] if p["property"] == "examples"]
    assert prop["source"] == "stated"
    assert _examples(report)["passed"]


@pytest.mark.parametrize(
    ("function", "said"),
    [("kth_smallest_off", "kth_smallest_off([5, 1, 4, 2, 3], 2)"), ("block_size_off", "12")],
)
def test_an_example_the_code_no_longer_gives_is_a_failure(
    module: Path, capsys: pytest.CaptureFixture[str], function: str, said: str
) -> None:
    code, report = check_json(capsys, module, function, 30)
    assert code == 1, report["results"]
    result = _examples(report)
    assert not result["passed"]
    assert "on 3 of 3 seeds" in result["detail"]
    assert said in result["detail"]


def test_an_example_of_one_unseeded_run_is_not_a_claim(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "roll", 30)
    result = _examples(report)
    assert result["passed"], result
    assert "1 that vary with the seed or cannot run here not checked" in result["detail"]
    assert code == 0, report["results"]


def test_an_example_that_cannot_run_here_is_skipped_not_failed(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, report = check_json(capsys, module, "scaled", 30)
    assert "1 docstring examples gave what they say" in _examples(report)["detail"]
    assert "cannot run here not checked" in _examples(report)["detail"]


def test_examples_given_by_flag_are_checked_too(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", f"{module}::kth_smallest_off", "--property", "examples", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [r["name"] for r in report["results"]] == ["examples"]


def test_examples_that_hold_do_not_hide_a_bug_on_repeats(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = check_json(capsys, module, "kth_smallest_repeats", 30)
    assert code == 1, report["results"]
    assert _examples(report)["passed"]
    failed = [r for r in report["results"] if not r["passed"]]
    assert failed and all("kth_smallest_repeats([" in r["detail"] for r in failed)
