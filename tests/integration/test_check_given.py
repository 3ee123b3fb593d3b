"""``automock check --property`` on in-place and untyped functions (issue 30).

A property given by flag is checked the way an inferred one is: a function seen
returning ``None`` after changing its list is in place (its list is the output,
changed or not), and an untyped parameter gets the inputs the function was seen
to accept. Each function here is our own.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main
from automock.properties.propose import propose
from automock.properties.suite import check_function
from tests.conftest import written_module

SOURCE = """
import random


def quick_sort(arr: list[int], low=0, high=None):
    if high is None:
        high = len(arr) - 1
    if low < high:
        k = random.randint(low, high)
        arr[k], arr[high] = arr[high], arr[k]
        i = low
        for j in range(low, high):
            if arr[j] <= arr[high]:
                arr[i], arr[j] = arr[j], arr[i]
                i += 1
        arr[i], arr[high] = arr[high], arr[i]
        quick_sort(arr, low, i - 1)
        quick_sort(arr, i + 1, high)


def kth_smallest(items: list[int], index: int):
    if index < 0 or index >= len(items):
        return None  # no such element: the documented answer
    pivot = random.choice(items)
    lower = [v for v in items if v < pivot]
    same = [v for v in items if v == pivot]
    if index < len(lower):
        return kth_smallest(lower, index)
    if index < len(lower) + len(same):
        return pivot
    return kth_smallest([v for v in items if v > pivot], index - len(lower) - len(same))


def mix(x):
    for i in range(len(x) - 1, 0, -1):
        j = random.randrange(i + 1)
        x[i], x[j] = x[j], x[i]
"""


module = written_module("inplace.py", SOURCE)


def test_a_given_property_of_an_in_place_sort_reads_the_list_even_unchanged(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", f"{module}::quick_sort", "--property", "sorted,permutation"]
    code = main([*argv, "--examples", "40", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report["results"]  # not "quick_sort([]) returned None"


def test_a_given_property_of_an_untyped_list_parameter_is_searched(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", f"{module}::mix", "--property", "permutation,uniform"]
    code = main([*argv, "--examples", "40", "--runs", "800", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report["results"]  # not "add a type hint"


def test_an_untyped_parameter_named_x_is_observed_as_a_list() -> None:
    namespace: dict[str, object] = {}
    exec(compile(SOURCE, "inplace.py", "exec"), namespace)
    mix = namespace["mix"]
    applied, observed = propose(mix, call_seconds=2.0)  # type: ignore[arg-type]
    assert {a.property for a in applied} == {"permutation", "uniform"}
    seen = [o.args for o in observed.accepted]
    report = check_function(mix, applied, max_examples=40, runs=800, type_examples=seen)  # type: ignore[arg-type]
    assert report.passed, report.results


def test_a_none_the_function_returns_on_purpose_is_outside_its_domain(
    module: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", f"{module}::kth_smallest", "--property", "subset", "--examples", "60"]
    code = main([*argv, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report["results"]  # not "kth_smallest([0], 1) returned None"
    assert "outside its domain" in report["results"][0]["detail"]
