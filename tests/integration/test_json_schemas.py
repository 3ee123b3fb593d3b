"""Every JSON output carries its schema tag; real run and check reports validate against the
JSON Schemas shipped in ``automock/schemas/`` (docs/json.md)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from automock import _schemas as schemas
from automock.cli import main

DEAL = """
import random


def shuffle(xs: list[int]) -> list[int]:
    out = list(xs)
    random.shuffle(out)
    return out


def sort(xs: list[int]) -> list[int]:
    if xs == [3, 1, 2]:
        return [1, 2, 3]
    return list(xs)
"""


def _validator(tag: str) -> jsonschema.Draft202012Validator:
    text = resources.files("automock").joinpath("schemas", schemas.schema_file(tag)).read_text()
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _output(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_run_reports_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    validator = _validator(schemas.RUN)
    passing = tmp_path / "clock.py"
    passing.write_text("import time, random\nprint(time.time(), random.random())\n")
    refused = tmp_path / "connect.py"
    refused.write_text("import socket\nsocket.create_connection(('203.0.113.5', 80), timeout=1)\n")
    looped = tmp_path / "quote.py"  # drafted, tried, repaired: the report has `drafting`
    looped.write_text(
        "import requests\nkey = 'pr' + 'ice'\n"
        "print(requests.get('https://api.example.com/q').json()[key] is not None)\n"
    )
    reports = [
        _output(capsys, "run", "--json", "--repeat", "2", str(passing)),
        _output(capsys, "run", "--json", str(refused)),
        _output(capsys, "run", "--json", "--no-save", str(looped)),
    ]
    assert reports[2][1]["drafting"]["kept"] == 1
    for code, report in reports:
        validator.validate(report)
        assert report["schema"] == "automock.run/1"
        assert report["automock_exit_code"] == code
    assert reports[0][1]["deterministic"] is True
    assert reports[1][1]["status"] == "unmocked" and reports[1][1]["unmocked"]


def test_run_schema_rejects_what_it_should(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The schema is not a rubber stamp: a changed tag, a missing or unknown field fails it."""
    validator = _validator(schemas.RUN)
    path = tmp_path / "hello.py"
    path.write_text("print('hi')\n")
    _, report = _output(capsys, "run", "--json", str(path))
    validator.validate(report)
    for broken in (
        {**report, "schema": "automock.run/2"},
        {k: v for k, v in report.items() if k != "status"},
        {**report, "surprise": 1},
        {**report, "runs": []},
    ):
        assert not validator.is_valid(broken)


def test_check_reports_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    validator = _validator(schemas.CHECK)
    deal = tmp_path / "deal.py"
    deal.write_text(DEAL)
    tests = tmp_path / "test_deal.py"
    tests.write_text(
        "from deal import sort\n\ndef test_sort():\n    assert sort([3, 1, 2]) == [1, 2, 3]\n"
    )
    shuffled = _output(
        capsys, "check", f"{deal}::shuffle", "--json", "--runs", "300", "--examples", "20"
    )
    hard_coded = _output(
        capsys, "check", f"{deal}::sort", "--json", "--tests", str(tests), "--examples", "30"
    )
    for _, report in (shuffled, hard_coded):
        validator.validate(report)
        assert report["schema"] == "automock.check/1"
    assert [r["name"] for r in shuffled[1]["results"]] == ["permutation", "uniform"]
    assert hard_coded[0] == 1 and hard_coded[1]["hardcoding"]["verdict"] == "hard-coded"


def test_scan_and_batch_outputs_carry_their_tags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "a.py"
    source.write_text("import time\ntime.time()\n")
    _, scanned = _output(capsys, "scan", "--json", str(source))
    assert scanned["schema"] == "automock.scan/1"

    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        json.dumps(
            {
                "task_id": "t/sq",
                "prompt": "def sq(x):\n",
                "test": "def check(c):\n    assert c(3) == 9\n",
                "entry_point": "sq",
            }
        )
        + "\n"
    )
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "t/sq", "completion": "    return x * x\n"}) + "\n")
    summary = tmp_path / "summary.json"
    code = main(["batch", str(samples), "--problems", str(problems), "--summary", str(summary)])
    out = capsys.readouterr().out
    assert code == 0
    header, line = [json.loads(text) for text in out.splitlines()]
    validator = _validator(schemas.BATCH)
    for record in (header, line):
        validator.validate(record)
    assert header["record"] == "layers" and line["record"] == "candidate"
    assert line["schema"] == "automock.batch/2" and line["status"] == "passed"
    assert json.loads(summary.read_text())["schema"] == "automock.batch-summary/1"

    problems.write_text(
        problems.read_text().replace(
            '"entry_point"', '"canonical_solution": "    return x ** 2\\n", "entry_point"'
        )
    )
    code = main(["batch", str(samples), "--problems", str(problems), "--amplify", "20"])
    out = capsys.readouterr().out
    assert code == 0
    records = [json.loads(text) for text in out.splitlines()]
    for record in records:
        validator.validate(record)
    assert records[1]["amplify"]["status"] == "passed"
