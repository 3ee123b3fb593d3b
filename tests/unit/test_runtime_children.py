"""Which processes follow the plan (:mod:`automock.runtime.children`), and with what environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from automock.plan.model import Plan
from automock.runtime.children import ENV_PLAN, ENV_SEED, child_environment, followed_children
from automock.runtime.events import recording
from automock.runtime.processes import recorded_processes


def test_only_python_children_that_keep_sitecustomize_are_followed(tmp_path: Path) -> None:
    with followed_children(str(tmp_path / "plan.json"), 7, "/nowhere"):
        first = child_environment([sys.executable, "-c", "pass"], None, {"PYTHONPATH": "/mine"})
        second = child_environment(["python3", "-X", "dev", "script.py"], None, None)
        assert child_environment(["echo", "hi"], None, None) is None
        assert child_environment([sys.executable, "-I", "-c", "pass"], None, None) is None
        assert child_environment([sys.executable, "-sE", "x.py"], None, None) is None
        assert child_environment([sys.executable, "-c", "-I"], None, None) is not None
    assert child_environment([sys.executable, "-c", "pass"], None, None) is None  # outside
    assert first is not None and second is not None
    assert first[ENV_SEED] != second[ENV_SEED]  # derived by start order
    assert first["PYTHONPATH"].endswith(os.pathsep + "/mine")
    assert first[ENV_PLAN] == str(tmp_path / "plan.json")


def test_a_python_child_runs_under_the_plan(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(Plan(seed=3).to_dict()))
    code = (
        "import os, time, random; print(time.time(), random.random(), os.environ.get('PYTHONPATH'))"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    root = str(Path(__file__).resolve().parents[2])
    with recording() as log, recorded_processes(), followed_children(str(plan), 3, root):
        runs = [
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
            )
            for _ in range(2)
        ]
    (clock, first, path), (_, second, _) = (r.stdout.split() for r in runs)
    assert clock == "1704067200.0"
    assert first != second
    assert path == "None", "the child's PYTHONPATH is the program's (none here)"
    process = [a for a in log.accesses if a.kind == "process"]
    assert process and all(a.mocked for a in process)
